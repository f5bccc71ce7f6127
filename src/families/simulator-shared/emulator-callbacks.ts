import { keepInLog } from './emulator-log';

/** A callback an emulator sent: where, with which headers and body, and the status it was answered (0: no answer). */
export interface SentCallback {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** What a provider's callback carries: its body (sent as JSON, the exact bytes signed) and the signature headers made over them. */
export type CallbackMaker = (body: string, url: string) => Record<string, string>;

/**
 * How an emulator calls back as its provider does (providers that push): a POST of a JSON body to
 * the URL a submit named, signed by `sign`, once the task has ended (`delayMs` after the submit,
 * the emulator's clock of a task's end; tests set it). The calls are logged for tests to look at or replay.
 */
export class EmulatorCallbacks {
  /** Every callback sent, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly sent: SentCallback[] = [];
  /** When callbacks go out after a submit; null: the emulator's own clock decides (the task's end). */
  delayMs: number | null = null;
  /** False: the provider never calls back (tests of the safety net). */
  enabled = true;
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Sends `body()` to `url` after `delayMs` (this emulator's, or the task's end by its clock). */
  schedule(url: string, clockDelayMs: number, body: () => Promise<unknown>, sign: CallbackMaker = () => ({})): void {
    if (!this.enabled) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void body()
        .then((json) => this.send(url, JSON.stringify(json), sign))
        .catch(() => undefined);
    }, this.delayMs ?? clockDelayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** One POST as the provider sends it; answers the status (0 when nothing answered). */
  async send(url: string, body: string, sign: CallbackMaker = () => ({})): Promise<number> {
    const headers = { 'content-type': 'application/json', ...sign(body, url) };
    let status: number;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    keepInLog(this.sent, { url, headers, body, status });
    return status;
  }

  /** Callbacks still to be sent are dropped (the emulator stops). */
  cancelPending(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
