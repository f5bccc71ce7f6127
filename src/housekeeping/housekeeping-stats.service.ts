import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** Rows and bytes removed since this instance started, for the console dashboard. */
export interface HousekeepingTotals {
  rows: number;
  bytes: number;
  /** Ended tasks deleted by TASK_RETENTION (also counted in `rows`). */
  tasks: number;
}

const ROWS_HELP = 'Rows deleted by housekeeping and task retention, by table';
const BYTES_HELP = 'Bytes freed by housekeeping and task retention (stored videos and thumbnails, portrait uploads), by table';

/**
 * What housekeeping and the task retention removed: Prometheus counters by table
 * (`gateway_housekeeping_rows_deleted_total`, `gateway_housekeeping_bytes_deleted_total`) and the
 * same totals for the dashboard.
 */
@Injectable()
export class HousekeepingStats {
  private readonly rowCounter: Counter<'table'>;
  private readonly byteCounter: Counter<'table'>;
  private readonly sums: HousekeepingTotals = { rows: 0, bytes: 0, tasks: 0 };

  constructor(registry: MetricsRegistry) {
    this.rowCounter = registry.counter('gateway_housekeeping_rows_deleted_total', ROWS_HELP, ['table']);
    this.byteCounter = registry.counter('gateway_housekeeping_bytes_deleted_total', BYTES_HELP, ['table']);
  }

  removed(table: string, rows: number, bytes = 0): void {
    if (rows > 0) this.rowCounter.inc({ table }, rows);
    if (bytes > 0) this.byteCounter.inc({ table }, bytes);
    this.sums.rows += rows;
    this.sums.bytes += bytes;
    if (table === 'tasks') this.sums.tasks += rows;
  }

  totals(): HousekeepingTotals {
    return { ...this.sums };
  }
}
