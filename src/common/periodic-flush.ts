/**
 * Runs `write` every `intervalMs` (a timer that keeps no process alive) and whenever `flush()` is
 * called, one run after another. `write` must never reject: it keeps what it could not write for
 * the next run.
 */
export class PeriodicFlush {
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: () => Promise<void>,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
