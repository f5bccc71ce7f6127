import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import type { PollOutcome, ProviderUsage } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import { seedanceCode, seedanceFailReason } from './seedance-errors';
import type { SeedanceTask } from './seedance-protocol';

/**
 * A task query's answer (`GET /api/v3/contents/generations/tasks/{id}`, and a callback, which carries
 * the same JSON) -> the gateway's poll outcome: `queued` and `running` in flight; `succeeded` the
 * video at `content.video_url`; `failed` by its `error.code` (content checks -> content moderation
 * failed); `expired` (past `execution_expires_after`) an upstream timeout and `cancelled` the end of a
 * cancel: both ENDS, refunded, never "still running" (vercel/ai and the old new-api read them so).
 * Ark reports no progress. `usage.total_tokens` (else `completion_tokens`) is the provider's usage.
 * Any other status is transient (asked again), never an end.
 */
export function mapSeedanceQuery(body: unknown, policy?: LinkPolicy): PollOutcome {
  const task = (body && typeof body === 'object' ? body : {}) as SeedanceTask;
  const raw = storedSeedanceTask(task);
  const usage = seedanceUsage(task);
  const outcome = (fields: Omit<PollOutcome, 'raw'>): PollOutcome => ({ ...fields, raw, ...(usage ? { providerUsage: usage } : {}) });
  switch (task.status) {
    case 'queued':
      return outcome({ state: 'queued', progress: 0 });
    case 'running':
      return outcome({ state: 'running' });
    case 'succeeded': {
      const url = task.content?.video_url;
      if (typeof url !== 'string' || !isShowableLink(url, policy))
        return outcome({ state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider gave no usable video link') });
      return outcome({ state: 'succeeded', progress: 100, videoUrl: url });
    }
    case 'failed':
      return outcome({ state: 'failed', failReason: seedanceFailReason(seedanceCode(task.error?.code)) });
    case 'expired':
      return outcome({ state: 'failed', failReason: failureReason(FAILURE.timeout, 'the provider expired the task') });
    case 'cancelled':
    case 'canceled':
      return outcome({
        state: 'failed',
        failReason: failureReason(FAILURE.generation, 'the task was cancelled upstream'),
        cancelledUpstream: true,
      });
    default:
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(task.status) ?? null)} in the provider's answer`,
      );
  }
}

/** `usage.total_tokens` (what new-api bills on), else `completion_tokens`: the same number for a video. */
export function seedanceUsage(task: SeedanceTask): ProviderUsage | undefined {
  return reportedUsage('tokens', task.usage?.total_tokens) ?? reportedUsage('tokens', task.usage?.completion_tokens);
}

/** The documented fields of a task, without its links, its usage (the operator's business) or any provider text. */
function storedSeedanceTask(task: SeedanceTask): unknown {
  return storedAnswer({
    id: keptText(task.id, 128),
    model: keptText(task.model, 128),
    status: keptText(task.status, 32),
    error: task.error && typeof task.error === 'object' ? { code: seedanceCode(task.error.code) } : undefined,
    seed: keptNumber(task.seed),
    resolution: keptText(task.resolution, 16),
    ratio: keptText(task.ratio, 16),
    duration: keptNumber(task.duration),
    framespersecond: keptNumber(task.framespersecond),
    generate_audio: typeof task.generate_audio === 'boolean' ? task.generate_audio : undefined,
  });
}
