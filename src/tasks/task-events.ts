import type { EntityManager } from 'typeorm';
import { changedRows } from '../database/lean-writes';
import type { TaskEventKind } from './task-event.entity';

export interface TaskEventInput {
  /** `tasks.id`. */
  taskRowId: number;
  kind: TaskEventKind;
  status?: string | null;
  progress?: number | null;
  detail?: string | null;
  at: number;
}

const INSERT_EVENT_SQL = 'INSERT INTO task_events (task_row_id, kind, status, progress, detail, at) VALUES (?, ?, ?, ?, ?, ?)';

/** Writes one state change of a task; call it with the manager of the transaction that makes the change. */
export async function recordTaskEvent(manager: EntityManager, event: TaskEventInput): Promise<void> {
  const detail = event.detail ? event.detail.slice(0, 255) : null;
  await changedRows(manager, INSERT_EVENT_SQL, [
    event.taskRowId,
    event.kind,
    event.status ?? null,
    event.progress ?? null,
    detail,
    event.at,
  ]);
}

/** Progress is recorded at each quarter it passes (25, 50, 75), not at every poll. */
export const PROGRESS_STEP = 25;

export const passesProgressStep = (before: number, after: number): boolean =>
  after < 100 && Math.floor(after / PROGRESS_STEP) > Math.floor(before / PROGRESS_STEP);

/**
 * The progress events of a batch of quiet polls, as one INSERT ... SELECT guarded like the batch's
 * UPDATE (same lease owner and status), so only rows the UPDATE will write get an event. Run it in
 * the UPDATE's transaction, before it (the UPDATE frees the lease the guard checks).
 */
export function progressEventsSql(
  rows: ReadonlyArray<{ id: number; progress: number }>,
  owner: string,
  status: string,
  at: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const whens = rows.map((row) => {
    params.push(row.id, row.progress);
    return 'WHEN ? THEN ?';
  });
  params.push(at, ...rows.map((row) => row.id), owner, status);
  const sql =
    `INSERT INTO task_events (task_row_id, kind, status, progress, detail, at) ` +
    `SELECT id, 'progress', status, CASE id ${whens.join(' ')} END, NULL, ? FROM tasks ` +
    `WHERE id IN (${rows.map(() => '?').join(', ')}) AND lease_owner = ? AND status = ?`;
  return { sql, params };
}
