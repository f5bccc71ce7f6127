import type { PollOutcome } from '../upstream-adapter';
import { UpstreamError } from '../upstream-adapter';
import type { BetaQueryBody } from './beta-protocol';

const MODERATION_CODES = new Set(['DataInspectionFailed', 'InvalidParameter.DataInspection']);

/**
 * The provider's task query -> the gateway's poll outcome. The raw body is kept untouched as the
 * task's upstream_response (`data.data` of the unified form); usage numbers may be floats, and
 * only their presence matters here.
 */
export function mapBetaQuery(body: unknown): PollOutcome {
  const output = (body as BetaQueryBody | null)?.output;
  const status = typeof output?.task_status === 'string' ? output.task_status.toUpperCase() : '';
  switch (status) {
    case 'PENDING':
      return { state: 'queued', raw: body };
    case 'RUNNING':
      return { state: 'running', raw: body };
    case 'SUCCEEDED':
      if (typeof output?.video_url !== 'string' || !output.video_url) {
        return { state: 'failed', failReason: 'generation failed: the provider reported success without a video_url', raw: body };
      }
      return { state: 'succeeded', videoUrl: output.video_url, raw: body };
    case 'FAILED':
    case 'CANCELED':
    case 'UNKNOWN':
      return { state: 'failed', failReason: betaFailReason(status, output?.code, output?.message), raw: body };
    default:
      throw new UpstreamError('transient', `unexpected task_status ${JSON.stringify(output?.task_status ?? null)} in the provider's answer`);
  }
}

/** Names the provider's code and message; moderation is called so, as in the interface document. */
export function betaFailReason(status: string, code?: string, message?: string): string {
  const detail = [code, message].filter((part) => typeof part === 'string' && part).join(': ');
  if (code && MODERATION_CODES.has(code)) return `content moderation failed (${detail})`;
  if (detail) return `generation failed (${detail})`;
  if (status === 'CANCELED') return 'generation failed (the task was canceled upstream)';
  if (status === 'UNKNOWN') return 'generation failed (the provider no longer knows the task: UNKNOWN)';
  return 'generation failed';
}
