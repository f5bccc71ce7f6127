import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { compact, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome, ProviderUsage } from '../../upstream/upstream-adapter';
import { reportedUsage } from '../shared/reported-usage';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { klingCode } from './kling-errors';
import type { KlingEnvelope, KlingTaskData } from './kling-protocol';

/** Kling reports output moderation only as free text in `task_status_msg` (English or Chinese). */
const MODERATION_TEXT = /moderat|safety|sensitive|risk|policy|violat|inappropriate|审核|敏感|违规|风控|安全/i;

/**
 * A task query's answer -> the gateway's poll outcome: `submitted` queued, `processing` running,
 * `succeed` (Kling's spelling) the first video's URL, `failed` with a moderation text -> content
 * moderation failed, else generation failed (the text itself is never shown). Anything else is
 * transient (asked again), never an end. Every endpoint (text2video, image2video, omni-video) answers
 * alike; `final_unit_deduction` is the provider's usage, in its units.
 */
export function mapKlingQuery(body: unknown, policy?: LinkPolicy): PollOutcome {
  const envelope = (body ?? {}) as KlingEnvelope;
  const code = klingCode(envelope.code);
  if (code !== '0') throw new UpstreamError('transient', `the provider answered the query with code ${code ?? 'none'}`);
  const data = envelope.data ?? {};
  const usage = klingUsage(data.final_unit_deduction);
  const outcome = mapKlingStatus(data, storedKlingTask(data), policy);
  return usage ? { ...outcome, providerUsage: usage } : outcome;
}

/** `final_unit_deduction` (a decimal string, or a number) as Kling's units. */
export function klingUsage(deduction: unknown): ProviderUsage | undefined {
  const amount = typeof deduction === 'string' && /^\d{1,9}(\.\d{1,6})?$/.test(deduction.trim()) ? Number(deduction) : deduction;
  return reportedUsage('credits', amount);
}

function mapKlingStatus(data: KlingTaskData, raw: unknown, policy?: LinkPolicy): PollOutcome {
  switch (data.task_status) {
    case 'submitted':
      return { state: 'queued', progress: 0, raw };
    case 'processing':
      return { state: 'running', raw };
    case 'succeed': {
      const url = data.task_result?.videos?.[0]?.url;
      if (typeof url !== 'string' || !isShowableLink(url, policy))
        return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider gave no usable video link'), raw };
      return { state: 'succeeded', progress: 100, videoUrl: url, raw };
    }
    case 'failed':
      return { state: 'failed', failReason: klingFailReason(data.task_status_msg), raw };
    default:
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(data.task_status) ?? null)} in the provider's answer`,
      );
  }
}

/** A failed task's reason in the interface's vocabulary: the provider's text only decides which. */
export function klingFailReason(message: unknown): string {
  return typeof message === 'string' && MODERATION_TEXT.test(message) ? FAILURE.moderation : FAILURE.generation;
}

/** The documented fields of a task, without the provider's text or video URLs; a few KB at most. */
function storedKlingTask(data: KlingTaskData): unknown {
  const videos = Array.isArray(data.task_result?.videos)
    ? data.task_result.videos
        .slice(0, 4)
        .map((video) => compact({ id: keptText(video?.id, 128), duration: keptText(video?.duration, 16) }) ?? {})
    : undefined;
  return storedAnswer({
    task_id: keptText(data.task_id, 128),
    task_status: keptText(data.task_status, 32),
    created_at: keptNumber(data.created_at),
    updated_at: keptNumber(data.updated_at),
    final_unit_deduction: keptNumber(data.final_unit_deduction),
    ...(videos ? { task_result: { videos } } : {}),
  });
}
