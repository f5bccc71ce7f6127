import { toUnixSeconds } from '../common/runtime/clock';
import { isShowableLink } from '../common/urls/url-guard';
import type { ContentLinks } from '../storage/signed-links.service';
import { capStoredResponse } from '../upstream/provider-text';
import type { TaskEntity } from '../tasks/task.entity';
import { asCustomerSees } from '../tasks/settlement/as-customer-sees';
import { usageForAnswer } from '../tasks/settlement/task-usage-view';
import type { TaskUsage } from '../tasks/task-usage';
import type { UnifiedTask, UnifiedTaskResponse } from './dto/unified-task.dto';

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** What `data.data` may show of a stored answer at most (answers are trimmed when stored; this covers older rows). */
const MAX_SHOWN_RESPONSE_BYTES = 32 * 1024;
/** Where the hosted platforms state their own cost of a task (xAI's ticks, Vidu's credits, Replicate's seconds): operators' business, never a client's. */
const PROVIDER_COST_KEYS = /^(cost_in_usd_ticks|credits|predict_time)$/i;

/**
 * The stored upstream answer as clients see it: links that may not be shown, provider messages and
 * the provider's own cost are left out, whatever the family (answers are trimmed when stored; older rows were not).
 */
export function shownUpstreamResponse(value: unknown): Record<string, unknown> {
  const scrub = (field: unknown): unknown => {
    if (typeof field === 'string') return field.includes('://') && !isShowableLink(field) ? undefined : field;
    if (Array.isArray(field)) return field.map(scrub).filter((item) => item !== undefined);
    if (field && typeof field === 'object') {
      const entries = Object.entries(field).filter(
        ([key]) => !/^(message|msg|errmsg|err_msg|stack|trace)$/i.test(key) && !PROVIDER_COST_KEYS.test(key),
      );
      return Object.fromEntries(entries.map(([key, item]) => [key, scrub(item)]).filter(([, item]) => item !== undefined));
    }
    return field;
  };
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return capStoredResponse(scrub(value) as Record<string, unknown>, MAX_SHOWN_RESPONSE_BYTES);
}

/**
 * Who reads the unified form: a customer never learns where the operator sends a task (its platform,
 * channel or upstream model name: blank, 0 and the public model id); the operator's views show them.
 */
export type UnifiedAudience = 'customer' | 'operator';

/** Any platform's task in the unified form; fail_reason and result_url only in their terminal state. */
export function toUnifiedTask(ended: TaskEntity, links: ContentLinks, audience: UnifiedAudience = 'customer'): UnifiedTask {
  const task = asCustomerSees(ended);
  const operator = audience === 'operator';
  const shown = shownUpstreamResponse(task.upstreamResponse);
  return {
    id: task.id,
    task_id: task.taskId,
    platform: operator ? task.platform : '',
    user_id: task.userId,
    group: task.group,
    channel_id: operator ? (task.channelId ?? 0) : 0,
    quota: task.quota,
    ...withUsage(usageForAnswer(task, links.quotaPerUnit)),
    action: task.action,
    status: task.status,
    fail_reason: task.status === 'FAILURE' ? (task.failReason ?? '') : '',
    // The gateway's own signed link; the provider's URL shows only in the raw `data`.
    result_url: task.status === 'SUCCESS' ? links.contentUrl(task) : '',
    submit_time: toUnixSeconds(task.submitTime),
    start_time: toUnixSeconds(task.startTime),
    finish_time: toUnixSeconds(task.finishTime),
    created_at: toUnixSeconds(task.createdAt),
    updated_at: toUnixSeconds(task.updatedAt),
    progress: `${task.progress}%`,
    properties: {
      input: textOf(task.properties?.input) ?? textOf(task.request?.prompt) ?? '',
      upstream_model_name: operator ? task.upstreamModel : task.model,
      origin_model_name: task.model,
      ...(typeof task.properties?.source_task_id === 'string' ? { source_task_id: task.properties.source_task_id } : {}),
    },
    data: withOwnVideoLinks(
      operator ? shown : withoutUpstreamModel(shown, task.upstreamModel, task.model),
      task.status === 'SUCCESS' ? links.contentUrl(task) : null,
    ),
  };
}

/**
 * The provider's answer names the model it ran (OpenAI's `model`, Replicate's `owner/name`, Veo's
 * `models/<id>/operations/...`): for a customer, that name is the public id wherever it appears.
 */
function withoutUpstreamModel(value: Record<string, unknown>, upstreamModel: string, publicModel: string): Record<string, unknown> {
  if (!upstreamModel || upstreamModel === publicModel) return value;
  const replace = (field: unknown): unknown => {
    if (typeof field === 'string') return field.split(upstreamModel).join(publicModel);
    if (Array.isArray(field)) return field.map(replace);
    if (field && typeof field === 'object') return Object.fromEntries(Object.entries(field).map(([key, item]) => [key, replace(item)]));
    return field;
  };
  return replace(value) as Record<string, unknown>;
}

/**
 * The raw record keeps its documented fields, but the provider's video URL never reaches a client:
 * a link under a video URL key (`video_url`, `url`, ...) becomes the gateway's own signed link once
 * the task succeeded, and any other link is left out.
 */
function withOwnVideoLinks(value: Record<string, unknown>, ownLink: string | null): Record<string, unknown> {
  const replace = (key: string, field: unknown): unknown => {
    if (typeof field === 'string' && /^https?:\/\//i.test(field)) return /(^|_)url$|video/i.test(key) && ownLink ? ownLink : undefined;
    if (Array.isArray(field)) return field.map((item) => replace(key, item)).filter((item) => item !== undefined);
    if (field && typeof field === 'object')
      return Object.fromEntries(
        Object.entries(field)
          .map(([inner, item]) => [inner, replace(inner, item)])
          .filter(([, item]) => item !== undefined),
      );
    return field;
  };
  return replace('', value) as Record<string, unknown>;
}

export const toUnifiedTaskResponse = (
  task: TaskEntity,
  links: ContentLinks,
  audience: UnifiedAudience = 'customer',
): UnifiedTaskResponse => ({
  code: 'success',
  message: '',
  data: toUnifiedTask(task, links, audience),
});

/** `usage` once the task ended; absent before. */
const withUsage = (usage: TaskUsage | undefined): { usage?: TaskUsage } => (usage ? { usage } : {});
