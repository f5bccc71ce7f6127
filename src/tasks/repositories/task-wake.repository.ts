import { Injectable } from '@nestjs/common';
import { changedRows } from '../../database/lean-writes';
import { TransactionRunner } from '../../database/transaction-runner';
import { POLLABLE_STATUSES } from '../task-status';

/** What a wake-up found: the task made due, one to try again (a submit or a poll holds it), or nothing to do. */
export type WakeResult = 'woken' | 'busy' | 'nothing';

/** Provider reads of one task are at least this far apart, however many callbacks ask for one. */
export const MIN_READ_GAP_MS = 1000;

const IN_FLIGHT = POLLABLE_STATUSES.map(() => '?').join(', ');
/** When the read asked for `at` may happen: then, or a second after the last read. */
const EARLIEST = `CASE WHEN last_poll_at IS NOT NULL AND last_poll_at > ? THEN last_poll_at + ${MIN_READ_GAP_MS} ELSE ? END`;
const WAKE =
  `UPDATE tasks SET next_poll_at = ${EARLIEST} ` +
  `WHERE id = ? AND status IN (${IN_FLIGHT}) AND upstream_task_id IS NOT NULL AND lease_owner IS NULL AND next_poll_at > ${EARLIEST}`;
const STATE = 'SELECT status, lease_owner, upstream_task_id FROM tasks WHERE id = ?';

/** A provider's callback makes its task due: the sync reads it then, as any poll (the sync's lease makes it one read). */
@Injectable()
export class TaskWakeRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** Moves the task's next poll to `at` (no sooner than a second after its last read); never later than it was. */
  async wake(id: number, at: number): Promise<WakeResult> {
    const earliest = [at - MIN_READ_GAP_MS, at];
    const woken = await this.transactions.runStatement((manager) =>
      changedRows(manager, WAKE, [...earliest, id, ...POLLABLE_STATUSES, ...earliest]),
    );
    if (woken > 0) return 'woken';
    const [row] = await this.transactions.runStatement(
      (manager): Promise<Array<{ status: string; lease_owner: string | null; upstream_task_id: string | null }>> =>
        manager.query(STATE, [id]),
    );
    if (!row) return 'nothing';
    const inFlight = (POLLABLE_STATUSES as string[]).includes(row.status);
    // A submit that has not stored the provider's id yet, or a poll under way: the read comes once it lets go.
    if (row.status === 'SUBMITTING' || (inFlight && (row.lease_owner !== null || row.upstream_task_id === null))) return 'busy';
    return 'nothing';
  }
}
