import { Injectable, Logger } from '@nestjs/common';
import { PeriodicWriter } from '../common/runtime/periodic-writer';
import { isDatabaseUnavailable } from '../common/errors/database-errors';

/** How often owed writes are tried again while the database does not answer. */
const RETRY_INTERVAL_MS = 500;

/** True once the write is settled for good; false to try it again next round. */
export type OwedWriteFn = () => Promise<boolean>;

interface OwedWrite {
  what: string;
  write: OwedWriteFn;
}

/**
 * Writes a submit owes the database because the database failed it (unreachable, frozen, full
 * disk) when the outcome matters: the refusal of a task whose client was answered 503 (its record
 * may have committed all the same), or the acceptance of a task the provider took. Each is a
 * compare-and-set, so it is tried again until the database answers, and applies at most once.
 */
@Injectable()
export class PendingSubmitWrites extends PeriodicWriter {
  private readonly logger = new Logger('PendingSubmitWrites');
  private readonly owed: OwedWrite[] = [];
  private pass: Promise<void> | null = null;

  constructor() {
    super(RETRY_INTERVAL_MS);
  }

  /** Owes `write` until the database answers it and it says it is settled; `what` names it in the logs. */
  owe(what: string, write: OwedWriteFn): void {
    this.logger.warn(`${what}: owed until the database answers again`);
    this.owed.push({ what, write });
  }

  /** How many writes are still owed (the database has not answered them yet). */
  get size(): number {
    return this.owed.length;
  }

  /** One pass at a time: while the database hangs, ticks do not queue up behind it. */
  override flush(): Promise<void> {
    this.pass ??= this.write().finally(() => (this.pass = null));
    return this.pass;
  }

  protected async write(): Promise<void> {
    for (const next of [...this.owed]) {
      try {
        if (!(await next.write())) continue;
        this.logger.log(`${next.what}: settled`);
      } catch (error) {
        // Still unavailable: the rest would wait just as long, so all of them wait for the next round.
        if (isDatabaseUnavailable(error)) return;
        this.logger.error(`${next.what}: failed for good: ${(error as Error)?.message ?? error}`);
      }
      this.owed.splice(this.owed.indexOf(next), 1);
    }
  }

  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    for (const { what } of this.owed)
      this.logger.error(`${what}: still owed at shutdown; the task's lease runs out and the sync settles it`);
  }
}
