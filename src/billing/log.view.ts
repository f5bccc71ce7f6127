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
  created_at: Math.floor(log.createdAt / 1000),
});
