import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { compact, describeCode, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import { PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
import { GAMMA_ERROR_REASONS, isModerationCode } from './gamma-errors';
import { GammaQueryBody, outputSizeOf } from './gamma-protocol';

/**
 * Provider status -> the gateway's poll outcome; failures carry a reason the client can read (the
 * documented meaning of the provider's code, never its message). The task keeps the documented
 * fields of the answer only, and the video link only when it may be shown (`policy`).
 */
export function mapGammaQuery(answer: unknown, policy?: LinkPolicy): PollOutcome {
  if (typeof answer !== 'object' || answer === null)
    throw new UpstreamError('transient', 'the provider answered the query with a body that is not JSON');
  const body = answer as GammaQueryBody;
  const raw = storedGammaResponse(body, policy);
  switch (body.status) {
    case 'queued':
      return { state: 'queued', raw };
    case 'running':
      return { state: 'running', raw };
    case 'succeeded': {
      const videoUrl = body.content?.video_url;
      if (typeof videoUrl !== 'string' || !videoUrl)
        return { state: 'failed', failReason: 'generation failed: the provider reported success without a video', raw };
      if (!isShowableLink(videoUrl, policy))
        return { state: 'failed', failReason: 'generation failed: the provider handed out a video link that cannot be used', raw };
      return { state: 'succeeded', videoUrl, outputSize: outputSizeOf(body.resolution, body.ratio), raw };
    }
    case 'failed': {
      const code = providerCode(body.error?.code);
      const prefix = code && isModerationCode(code) ? 'content moderation failed' : 'generation failed';
      const description = describeCode(GAMMA_ERROR_REASONS, code);
      return { state: 'failed', failReason: code ? `${prefix}: ${code}${description ? `: ${description}` : ''}` : prefix, raw };
    }
    case 'cancelled':
      return { state: 'failed', failReason: 'generation failed: the task was cancelled upstream', raw, cancelledUpstream: true };
    case 'expired':
      return { state: 'failed', failReason: 'upstream timeout: the provider expired the task', raw };
    default:
      throw new UpstreamError('transient', `the provider reported an unknown task status: ${providerCode(body.status) ?? '(unreadable)'}`);
  }
}

/** The documented fields of a query answer, as `data.data` shows them: no provider message, no unusable link, a few KB at most. */
export function storedGammaResponse(body: GammaQueryBody & { framespersecond?: unknown; usage?: unknown }, policy?: LinkPolicy): unknown {
  const error =
    body.error && typeof body.error === 'object'
      ? (compact({ code: providerCode(body.error.code) }) ?? {})
      : body.error === null
        ? null
        : undefined;
  const videoUrl = body.content && typeof body.content === 'object' ? body.content.video_url : undefined;
  const content =
    body.content && typeof body.content === 'object'
      ? (compact({ video_url: isShowableLink(videoUrl, policy) ? videoUrl : undefined }) ?? {})
      : body.content === null
        ? null
        : undefined;
  const counts = body.usage && typeof body.usage === 'object' ? (body.usage as Record<string, unknown>) : undefined;
  const usage = counts
    ? compact({ completion_tokens: keptNumber(counts.completion_tokens), total_tokens: keptNumber(counts.total_tokens) })
    : undefined;
  return storedAnswer({
    id: keptText(body.id, 128),
    model: keptText(body.model, 64),
    status: keptText(body.status, 32),
    error,
    created_at: keptNumber(body.created_at),
    updated_at: keptNumber(body.updated_at),
    content,
    seed: keptNumber(body.seed),
    resolution: keptText(body.resolution, 16),
    ratio: keptText(body.ratio, 16),
    duration: keptNumber(body.duration),
    framespersecond: keptNumber(body.framespersecond),
    usage,
  });
}
