import { toUnixSeconds } from '../common/clock';
import type { TaskEntity } from '../tasks/task.entity';
import type { UnifiedTask, UnifiedTaskResponse } from './dto/unified-task.dto';

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Any platform's task in the unified form; fail_reason and result_url only in their terminal state. */
export function toUnifiedTask(task: TaskEntity): UnifiedTask {
  return {
    id: task.id,
    task_id: task.taskId,
    platform: task.platform,
    user_id: task.userId,
    group: task.group,
    channel_id: task.channelId ?? 0,
    quota: task.quota,
    action: task.action,
    status: task.status,
    fail_reason: task.status === 'FAILURE' ? (task.failReason ?? '') : '',
    result_url: task.status === 'SUCCESS' ? (task.resultUrl ?? '') : '',
    submit_time: toUnixSeconds(task.submitTime),
    start_time: toUnixSeconds(task.startTime),
    finish_time: toUnixSeconds(task.finishTime),
    created_at: toUnixSeconds(task.createdAt),
    updated_at: toUnixSeconds(task.updatedAt),
    progress: `${task.progress}%`,
    properties: {
      input: textOf(task.properties?.input) ?? textOf(task.request?.prompt) ?? '',
      upstream_model_name: task.upstreamModel,
      origin_model_name: task.model,
    },
    data: (task.upstreamResponse as Record<string, unknown> | null) ?? {},
  };
}

export const toUnifiedTaskResponse = (task: TaskEntity): UnifiedTaskResponse => ({ code: 'success', message: '', data: toUnifiedTask(task) });
