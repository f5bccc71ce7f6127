import { inspect } from 'node:util';

/** Not an answer yet: `probe` keeps being asked (unless `done` says otherwise). */
type NotYet = undefined | null | false;

export interface UntilOptions<T> {
  /** When to give up (generous by default: a busy machine is slow, never wrong). */
  timeoutMs?: number;
  /** The pause between two asks. */
  everyMs?: number;
  /** Whether an answer is the one awaited; by default any answer but undefined, null or false. */
  done?: (value: T) => boolean;
}

/**
 * Polls `probe` until its answer is the one awaited and returns it; after `timeoutMs` it fails
 * saying what was awaited and the last answer seen. An error `probe` throws fails at once.
 */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  options?: UntilOptions<T> & { done?: undefined },
): Promise<Exclude<T, NotYet>>;
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  options: UntilOptions<T> & { done: (value: T) => boolean },
): Promise<T>;
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  {
    timeoutMs = 60_000,
    everyMs = 100,
    done = (value: T) => value !== undefined && value !== null && value !== false,
  }: UntilOptions<T> = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what} (last seen: ${inspect(value, { depth: 3, maxArrayLength: 10, breakLength: Infinity })})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
