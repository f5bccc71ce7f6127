import type { TestGateway } from './gateway';
import { queryDatabase } from './test-databases';

/** A task's ledger rows, oldest first: what the customer was charged and refunded for it. */
export async function ledgerOf(gw: TestGateway, taskId: string): Promise<Array<{ type: string; quota: number }>> {
  const rows = await queryDatabase<{ type: string; quota: number | string }>(
    gw.database,
    `SELECT type, quota FROM logs WHERE task_id = '${taskId}' ORDER BY id`,
  );
  return rows.map((row) => ({ type: row.type, quota: Number(row.quota) }));
}

/** A task's hand-overs in the admin timeline: each attempt on a channel and the submit a channel took. */
export async function attemptsOf(gw: TestGateway, taskId: string): Promise<Array<{ kind: string; detail?: string }>> {
  const timeline = (await gw.admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body.timeline as Array<{ kind: string; detail?: string }>;
  return timeline
    .filter((entry) => entry.kind === 'attempt' || entry.kind === 'submitted')
    .map((entry) => ({ kind: entry.kind, detail: entry.detail }));
}
