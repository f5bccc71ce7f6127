import type { BeforeApplicationShutdown, OnModuleDestroy } from '@nestjs/common';

/**
 * A service that gathers counts in memory and writes them every `intervalMs` (a timer that keeps no
 * process alive), whenever `flush()` is called, and once more at shutdown; one write after another.
 */
export abstract class PeriodicWriter implements OnModuleDestroy, BeforeApplicationShutdown {
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  protected constructor(intervalMs: number) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Writes what was gathered. Must never reject: it keeps what it could not write for the next time. */
  protected abstract write(): Promise<void>;

  /** Writes everything gathered so far; never rejects. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.flush();
  }
}
