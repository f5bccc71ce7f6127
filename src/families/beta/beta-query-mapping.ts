import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { compact, describeCode, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { pixelSizeOf } from '../pixel-size';
import { BETA_ERROR_REASONS } from './beta-errors';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { BetaQueryBody } from './beta-protocol';

const MODERATION_CODES = new Set(['DataInspectionFailed', 'InvalidParameter.DataInspection']);

/**
 * The provider's task query -> the gateway's poll outcome. The task's upstream_response (`data.data`
 * of the unified form) keeps the documented fields only, at most a few KB, and the video link only
 * when it may be shown (`policy`); usage numbers may be floats, and only their presence matters here.
 */
export function mapBetaQuery(body: unknown, policy?: LinkPolicy): PollOutcome {
  const output = (body as BetaQueryBody | null)?.output;
  const status = typeof output?.task_status === 'string' ? output.task_status.toUpperCase() : '';
  const raw = storedBetaResponse(body, policy);
  switch (status) {
    case 'PENDING':
      return { state: 'queued', raw };
    case 'RUNNING':
      return { state: 'running', raw };
    case 'SUCCEEDED':
      if (typeof output?.video_url !== 'string' || !output.video_url) {
        return { state: 'failed', failReason: 'generation failed: the provider reported success without a video_url', raw };
      }
      if (!isShowableLink(output.video_url, policy))
        return { state: 'failed', failReason: 'generation failed: the provider handed out a video link that cannot be used', raw };
      return { state: 'succeeded', videoUrl: output.video_url, outputSize: betaOutputSize(body), raw };
    case 'FAILED':
    case 'CANCELED':
    case 'UNKNOWN':
      return { state: 'failed', failReason: betaFailReason(status, output?.code), raw };
    default:
      throw new UpstreamError(
        'transient',
        `unexpected task_status ${JSON.stringify(providerCode(output?.task_status) ?? null)} in the provider's answer`,
      );
  }
}

/** Names the provider's code and its documented meaning (never its message), in the interface's failure vocabulary. */
export function betaFailReason(status: string, rawCode?: unknown): string {
  const code = providerCode(rawCode);
  if (code && MODERATION_CODES.has(code)) return failureReason(FAILURE.moderation, code);
  if (code) return failureReason(FAILURE.generation, code, describeCode(BETA_ERROR_REASONS, code));
  if (status === 'CANCELED') return failureReason(FAILURE.generation, 'the task was canceled upstream');
  if (status === 'UNKNOWN') return failureReason(FAILURE.generation, 'the provider no longer knows the task (UNKNOWN)');
  return FAILURE.generation;
}

/** The video's pixel size from `usage` (`SR` is its short side, `ratio` its shape), as every family's `size` says it. */
function betaOutputSize(body: unknown): string | undefined {
  const usage = (body as { usage?: { SR?: unknown; ratio?: unknown } } | null)?.usage;
  return usage ? pixelSizeOf(Math.round(Number(usage.SR)), usage.ratio) : undefined;
}

/** The documented fields of a query answer, as `data.data` shows them: no provider message, no unusable link, a few KB at most. */
export function storedBetaResponse(body: unknown, policy?: LinkPolicy): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { request_id, output, usage } = body as { request_id?: unknown; output?: Record<string, unknown>; usage?: Record<string, unknown> };
  const keptOutput =
    output && typeof output === 'object' && !Array.isArray(output)
      ? compact({
          task_id: keptText(output.task_id, 128),
          task_status: keptText(output.task_status, 32),
          submit_time: keptText(output.submit_time, 64),
          scheduled_time: keptText(output.scheduled_time, 64),
          end_time: keptText(output.end_time, 64),
          // The gateway sends at most 5000 characters (family B's prompt budget).
          orig_prompt: typeof output.orig_prompt === 'string' ? output.orig_prompt.slice(0, 5000) : undefined,
          video_url: isShowableLink(output.video_url, policy) ? (output.video_url as string) : undefined,
          code: providerCode(output.code),
        })
      : undefined;
  const keptUsage =
    usage && typeof usage === 'object' && !Array.isArray(usage)
      ? compact(
          Object.fromEntries(
            Object.entries(usage)
              .filter(([key]) => /^[A-Za-z_]{1,32}$/.test(key))
              .slice(0, 16)
              .map(([key, value]) => [key, keptNumber(value) ?? keptText(value, 32)]),
          ),
        )
      : undefined;
  return storedAnswer({ request_id: keptText(request_id, 128), output: keptOutput, usage: keptUsage });
}
