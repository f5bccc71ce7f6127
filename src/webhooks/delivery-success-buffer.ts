import { Logger } from '@nestjs/common';
import type { DeliverySuccess, WebhookDeliveryRepository } from './webhook-delivery.repository';

/** A flush as soon as this many successes gathered... */
const FLUSH_SIZE = 200;
/** ...or this long after the first of them: the deliveries list lags the receiver by about this much. */
const FLUSH_AFTER_MS = 50;

/**
 * Successful attempts are written in batches, one conditional UPDATE per flush (each row guarded by
 * its own lease owner), as the task sync writes its quiet polls: at hundreds of deliveries a
 * second, one statement per delivery would crowd the task sync's writes on the database.
 *
 * Until its flush, a success is still leased to this instance (nobody else sends it); a crash in
 * between only means it is sent once more when its lease runs out (at least once). A write that
 * fails is logged and its rows are tried once more with the next flush.
 */
export class DeliverySuccessBuffer {
  private rows: DeliverySuccess[] = [];
  /** Rows already written once without success: a second failure drops them (sent again after their lease). */
  private readonly retried = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deliveries: Pick<WebhookDeliveryRepository, 'recordSuccesses'>,
    private readonly logger: Pick<Logger, 'error'> = new Logger('DeliverySuccessBuffer'),
  ) {}

  /** Queues the write; flushes when enough gathered, or shortly after. */
  add(row: DeliverySuccess): void {
    this.rows.push(row);
    if (this.rows.length >= FLUSH_SIZE) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /** Writes everything queued so far; flushes run one after another and never reject. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.rows;
    this.rows = [];
    if (rows.length > 0) this.flushing = this.flushing.then(() => this.write(rows));
    return this.flushing;
  }

  private async write(rows: DeliverySuccess[]): Promise<void> {
    try {
      await this.deliveries.recordSuccesses(rows);
      for (const row of rows) this.retried.delete(row.id);
    } catch (error) {
      const retry = rows.filter((row) => !this.retried.has(row.id));
      for (const row of rows) if (this.retried.has(row.id)) this.retried.delete(row.id);
      for (const row of retry) this.retried.add(row.id);
      for (const row of retry) this.add(row);
      this.logger.error(
        `recording ${rows.length} delivered webhooks failed (${retry.length} retried with the next flush, the rest are sent again after their lease): ${(error as Error)?.message ?? error}`,
      );
    }
  }
}
