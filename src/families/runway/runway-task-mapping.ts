import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { describeCode, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import { PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
import type { RunwayTask } from './runway-protocol';

/** `SAFETY.INPUT.*`, `SAFETY.OUTPUT.*` and `INPUT_PREPROCESSING.SAFETY.*`: moderation. */
const MODERATION = /^(?:INPUT_PREPROCESSING\.)?SAFETY(?:\.|$)/;
/** Runway's documented failure codes, in the gateway's words (its `failure` text is never passed on). */
const FAILURE_CODES: Readonly<Record<string, string>> = {
  ASSET: "an input asset does not meet the provider's spec",
  'INTERNAL.BAD_OUTPUT': 'the provider rejected its own output (often text overlaid in the input)',
  INPUT_PREPROCESSING: 'the provider could not prepare the input',
  INTERNAL: 'provider internal error',
  THIRD_PARTY: 'a service the provider relies on is unavailable',
};

/**
 * A task of `GET /v1/tasks/{id}` -> the gateway's poll outcome: PENDING and THROTTLED wait,
 * RUNNING reports progress, SUCCEEDED downloads `output[0]`, FAILED names its failure code
 * (moderation for SAFETY codes), CANCELLED fails; an unknown status is transient (asked again).
 */
export function mapRunwayTask(body: unknown, policy?: LinkPolicy): PollOutcome {
  const task = (body ?? {}) as RunwayTask;
  const raw = storedRunwayTask(body);
  switch (task.status) {
    case 'PENDING':
    case 'THROTTLED':
      return { state: 'queued', progress: 0, raw };
    case 'RUNNING': {
      const progress =
        typeof task.progress === 'number' && Number.isFinite(task.progress)
          ? Math.max(0, Math.min(99, Math.round(task.progress * 100)))
          : undefined;
      return { state: 'running', progress, raw };
    }
    case 'SUCCEEDED': {
      const url = Array.isArray(task.output) ? task.output[0] : undefined;
      if (typeof url !== 'string' || !isShowableLink(url, policy))
        return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider returned no usable video'), raw };
      return { state: 'succeeded', progress: 100, videoUrl: url, raw };
    }
    case 'FAILED':
      return { state: 'failed', failReason: runwayFailReason(task.failureCode), raw };
    case 'CANCELLED':
      return {
        state: 'failed',
        failReason: failureReason(FAILURE.generation, 'the task was cancelled upstream'),
        raw,
        cancelledUpstream: true,
      };
    default:
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(task.status) ?? null)} in the provider's answer`,
      );
  }
}

/** `content moderation failed: SAFETY.INPUT.TEXT`, `generation failed: INTERNAL: provider internal error`. */
export function runwayFailReason(rawCode: unknown): string {
  const code = providerCode(rawCode);
  if (code && MODERATION.test(code)) return failureReason(FAILURE.moderation, code);
  return failureReason(FAILURE.generation, code, describeCode(FAILURE_CODES, code));
}

/** The documented fields of a task, without its signed output URLs or Runway's failure text. */
function storedRunwayTask(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const task = body as Record<string, unknown>;
  return storedAnswer({
    id: keptText(task.id, 128),
    createdAt: keptText(task.createdAt, 64),
    status: keptText(task.status, 32),
    progress: keptNumber(task.progress),
    failureCode: providerCode(task.failureCode),
  });
}
