import { PollOutcome, UpstreamError } from '../upstream-adapter';
import { isModerationCode } from './gamma-errors';
import { GammaQueryBody, outputSizeOf } from './gamma-protocol';

/** Provider status -> the gateway's poll outcome; failures carry a reason the client can read. */
export function mapGammaQuery(raw: unknown): PollOutcome {
  if (typeof raw !== 'object' || raw === null) throw new UpstreamError('transient', 'the provider answered the query with a body that is not JSON');
  const body = raw as GammaQueryBody;
  switch (body.status) {
    case 'queued':
      return { state: 'queued', raw };
    case 'running':
      return { state: 'running', raw };
    case 'succeeded': {
      const videoUrl = body.content?.video_url;
      if (typeof videoUrl !== 'string' || !videoUrl) return { state: 'failed', failReason: 'generation failed: the provider reported success without a video', raw };
      return { state: 'succeeded', videoUrl, outputSize: outputSizeOf(body.resolution, body.ratio), raw };
    }
    case 'failed': {
      const code = body.error?.code ?? '';
      const detail = [code, body.error?.message].filter(Boolean).join(': ');
      const prefix = isModerationCode(code) ? 'content moderation failed' : 'generation failed';
      return { state: 'failed', failReason: detail ? `${prefix}: ${detail}` : prefix, raw };
    }
    case 'cancelled':
      return { state: 'failed', failReason: 'generation failed: the task was cancelled upstream', raw };
    case 'expired':
      return { state: 'failed', failReason: 'upstream timeout: the provider expired the task', raw };
    default:
      throw new UpstreamError('transient', `the provider reported an unknown task status: ${String(body.status)}`);
  }
}
