import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { compact, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { OpenAiVideo } from './openai-protocol';
import { FAILURE, failureReason } from '../../upstream/failure-reason';

const MODERATION = /moderation|content_policy/;
const PIXEL_SIZE = /^\d{1,5}x\d{1,5}$/;

/**
 * A video object -> the gateway's poll outcome. A completed video is downloaded from the API's own
 * `/videos/{id}/content` (`contentUrl`, on the channel's host, so the link policy shows it); an
 * unknown status is transient (asked again), never an end.
 */
export function mapOpenAiVideo(body: unknown, contentUrl: string, policy?: LinkPolicy): PollOutcome {
  const video = (body ?? {}) as OpenAiVideo;
  const status = typeof video.status === 'string' ? video.status : '';
  const raw = storedOpenAiVideo(body);
  const progress =
    typeof video.progress === 'number' && Number.isFinite(video.progress)
      ? Math.max(0, Math.min(100, Math.round(video.progress)))
      : undefined;
  switch (status) {
    case 'queued':
      return { state: 'queued', progress: progress ?? 0, raw };
    case 'in_progress':
      return { state: 'running', progress, raw };
    case 'completed': {
      if (!isShowableLink(contentUrl, policy))
        return { state: 'failed', failReason: 'generation failed: the video cannot be downloaded from this channel', raw };
      const size = typeof video.size === 'string' && PIXEL_SIZE.test(video.size) ? video.size : undefined;
      return { state: 'succeeded', progress: 100, videoUrl: contentUrl, outputSize: size, raw };
    }
    case 'failed':
      return { state: 'failed', failReason: openAiFailReason(video.error?.code), raw };
    default:
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(video.status) ?? null)} in the provider's answer`,
      );
  }
}

/** Names the provider's code (never its message), in the interface's failure vocabulary. */
export function openAiFailReason(rawCode: unknown): string {
  const code = providerCode(rawCode);
  return failureReason(code && MODERATION.test(code) ? FAILURE.moderation : FAILURE.generation, code);
}

/** The documented fields of a video object: no provider message, a few KB at most. */
export function storedOpenAiVideo(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const video = body as Record<string, unknown>;
  const error =
    video.error && typeof video.error === 'object'
      ? compact({ code: providerCode((video.error as Record<string, unknown>).code) })
      : undefined;
  return storedAnswer({
    id: keptText(video.id, 128),
    object: keptText(video.object, 32),
    model: keptText(video.model, 128),
    status: keptText(video.status, 32),
    progress: keptNumber(video.progress),
    created_at: keptNumber(video.created_at),
    completed_at: keptNumber(video.completed_at),
    expires_at: keptNumber(video.expires_at),
    seconds: keptText(video.seconds, 16),
    size: keptText(video.size, 16),
    error,
  });
}
