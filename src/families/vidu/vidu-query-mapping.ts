import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { describeCode, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome, ProviderUsage } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { VIDU_ERROR_REASONS, VIDU_MODERATION_CODES, viduCode } from './vidu-errors';
import type { ViduTask } from './vidu-protocol';

/**
 * A task query's answer (`GET /ent/v2/tasks/{id}/creations`) -> the gateway's poll outcome:
 * `created` and `queueing` queued, `processing` running, `success` the first creation's URL,
 * `failed` by its `err_code` (the moderation codes -> content moderation failed; `UserCancelled` the
 * end of a cancel). Vidu reports no progress. `credits`, when a number, is the provider's usage.
 * Any other state is transient (asked again), never an end.
 */
export function mapViduQuery(body: unknown, policy?: LinkPolicy): PollOutcome {
  const task = (body ?? {}) as ViduTask;
  const raw = storedViduTask(task);
  const usage = viduUsage(task.credits);
  const withUsage = (outcome: PollOutcome): PollOutcome => (usage ? { ...outcome, providerUsage: usage } : outcome);
  switch (task.state) {
    case 'created':
    case 'queueing':
      return withUsage({ state: 'queued', progress: 0, raw });
    case 'processing':
      return withUsage({ state: 'running', raw });
    case 'success': {
      const url = Array.isArray(task.creations) ? task.creations[0]?.url : undefined;
      if (typeof url !== 'string' || !isShowableLink(url, policy))
        return withUsage({ state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider gave no usable video link'), raw });
      return withUsage({ state: 'succeeded', progress: 100, videoUrl: url, raw });
    }
    case 'failed': {
      const code = viduCode(task.err_code);
      if (code === 'UserCancelled')
        return withUsage({
          state: 'failed',
          failReason: failureReason(FAILURE.generation, 'the task was cancelled upstream'),
          raw,
          cancelledUpstream: true,
        });
      return withUsage({ state: 'failed', failReason: viduFailReason(code), raw });
    }
    default:
      throw new UpstreamError('transient', `unexpected state ${JSON.stringify(providerCode(task.state) ?? null)} in the provider's answer`);
  }
}

/** `content moderation failed: CreationPolicyViolation`, `generation failed: InternalServiceFailure: provider internal error`. */
export function viduFailReason(code: string | undefined): string {
  if (code && VIDU_MODERATION_CODES.has(code)) return failureReason(FAILURE.moderation, code);
  return failureReason(FAILURE.generation, code, describeCode(VIDU_ERROR_REASONS, code));
}

/** Vidu's `credits` (create and query answers): what the task costs the provider account. */
export function viduUsage(credits: unknown): ProviderUsage | undefined {
  return reportedUsage('credits', credits);
}

/** The documented fields of a task, without its video links or any provider text; a few hundred bytes. */
function storedViduTask(task: ViduTask): unknown {
  return storedAnswer({
    id: keptText(task.id, 128),
    state: keptText(task.state, 32),
    err_code: viduCode(task.err_code),
    credits: keptNumber(task.credits),
    creations: Array.isArray(task.creations) ? task.creations.length : undefined,
  });
}
