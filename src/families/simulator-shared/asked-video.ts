import type { AskedVideo } from './emulator-http';

/** A request's duration (`5`, `"5"`, `"8s"`) in seconds; undefined when absent or unreadable. */
export function askedSeconds(value: unknown): number | undefined {
  const seconds = typeof value === 'number' ? value : Number.parseFloat(String(value ?? ''));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** A request's text field; undefined when it is anything else (unsaid). */
export const askedText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A request's flag; undefined when it is anything else (unsaid). */
export const askedFlag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

/** What a JSON video request asked under the usual keys: `duration`, `resolution`, `aspect_ratio`, `generate_audio`. */
export function askedOfUsualKeys(body: Record<string, unknown>): AskedVideo {
  return {
    seconds: askedSeconds(body.duration),
    resolution: askedText(body.resolution),
    aspectRatio: askedText(body.aspect_ratio),
    audio: askedFlag(body.generate_audio),
  };
}
