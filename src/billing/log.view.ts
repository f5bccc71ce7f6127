import { ledgerDetailCode } from './ledger-detail-code';
import type { LogEntity } from './log.entity';

export const toLogView = (log: LogEntity) => ({
  id: log.id,
  type: log.type,
  user_id: log.userId,
  task_id: log.taskId,
  model: log.model,
  quota: log.quota,
  balance_after: log.balanceAfter,
  channel_id: log.channelId,
  detail: log.detail,
  ...detailCodeOf(log.detail),
  created_at: Math.floor(log.createdAt / 1000),
});

/** `detail_code` and `detail_params` for a ledger row's detail (both null for free text). */
export function detailCodeOf(detail: string | null): { detail_code: string | null; detail_params: Record<string, string | number> | null } {
  const code = ledgerDetailCode(detail);
  return { detail_code: code?.detail_code ?? null, detail_params: code?.detail_params ?? null };
}
