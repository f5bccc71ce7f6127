import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { compact, describeCode, keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import type { PollOutcome, ProviderUsage } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { parsePixelSize } from '../pixel-size';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import { WAN_ERROR_REASONS, WAN_MODERATION_CODES } from './wan-errors';
import type { WanTaskAnswer } from './wan-protocol';

/** The `usage` keys DashScope documents across its models (wan2.1's `video_*`, 2.5+'s `duration`/`SR`/`size`, 2.7's `output_video_duration`). */
const USAGE_KEYS = [
  'duration',
  'video_duration',
  'output_video_duration',
  'input_video_duration',
  'video_count',
  'video_ratio',
  'SR',
  'size',
  'ratio',
];

/**
 * A task query's answer (`GET /api/v1/tasks/{id}`) -> the gateway's poll outcome: `PENDING` queued,
 * `RUNNING` running (DashScope reports no progress: the gateway estimates it), `SUCCEEDED` the
 * `output.video_url` (the frame size from `usage.size` where given), `FAILED` by its `output.code`
 * (the content codes -> content moderation failed). `CANCELED` (one L) and `UNKNOWN` (a task older
 * than 24 hours, or one DashScope never had) are ends, refunded, never "still running". The seconds
 * `usage` bills are the provider's usage. Any other status is transient (asked again).
 */
export function mapWanQuery(body: unknown, policy?: LinkPolicy): PollOutcome {
  const answer = (body && typeof body === 'object' ? body : {}) as WanTaskAnswer;
  const output = answer.output ?? {};
  const usage = wanUsage(answer);
  const outcome = (fields: Omit<PollOutcome, 'raw'>): PollOutcome => ({
    ...fields,
    raw: storedWanAnswer(answer),
    ...(usage ? { providerUsage: usage } : {}),
  });
  switch (output.task_status) {
    case 'PENDING':
      return outcome({ state: 'queued', progress: 0 });
    case 'RUNNING':
      return outcome({ state: 'running' });
    case 'SUCCEEDED': {
      const url = output.video_url;
      if (typeof url !== 'string' || !isShowableLink(url, policy))
        return outcome({ state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider gave no usable video link') });
      const size = parsePixelSize(String(answer.usage?.size ?? '').replace('*', 'x'));
      return outcome({ state: 'succeeded', progress: 100, videoUrl: url, ...(size ? { outputSize: `${size.width}x${size.height}` } : {}) });
    }
    case 'FAILED':
      return outcome({ state: 'failed', failReason: wanFailReason(output.code) });
    case 'CANCELED':
      return outcome({
        state: 'failed',
        failReason: failureReason(FAILURE.generation, 'cancelled', 'the provider cancelled the task'),
        cancelledUpstream: true,
      });
    case 'UNKNOWN':
      return outcome({
        state: 'failed',
        failReason: failureReason(FAILURE.timeout, 'the provider no longer knows the task (UNKNOWN: expired after 24 hours)'),
      });
  }
  const status = JSON.stringify(providerCode(output.task_status) ?? null);
  throw new UpstreamError('transient', `unexpected task_status ${status} in the provider's answer`);
}

/** `content moderation failed: DataInspectionFailed`, `generation failed: InternalError.Algo: provider internal error`. */
export function wanFailReason(rawCode: unknown): string {
  const code = providerCode(rawCode);
  return code && WAN_MODERATION_CODES.has(code)
    ? failureReason(FAILURE.moderation, code)
    : failureReason(FAILURE.generation, code, describeCode(WAN_ERROR_REASONS, code));
}

/** The seconds DashScope bills (`usage.duration`, wan2.1's `video_duration`, else `output_video_duration`), unit `video_seconds`. */
export function wanUsage(answer: WanTaskAnswer): ProviderUsage | undefined {
  const usage = answer.usage ?? {};
  return reportedUsage('video_seconds', usage.duration ?? usage.video_duration ?? usage.output_video_duration);
}

/** The output's documented fields a task keeps (never the link, the prompts or the message). */
const OUTPUT_KEYS = ['task_id', 'task_status', 'submit_time', 'scheduled_time', 'end_time'] as const;

/** The documented fields of an answer, without the video link, the prompts or any provider text. */
function storedWanAnswer({ request_id, output = {}, usage }: WanTaskAnswer): unknown {
  const kept = (keys: readonly string[], from: Record<string, unknown>, read: (value: unknown) => unknown) =>
    compact(Object.fromEntries(keys.map((key) => [key, read(from[key])])));
  return storedAnswer({
    request_id: keptText(request_id, 128),
    output: { ...kept(OUTPUT_KEYS, output, (value) => keptText(value, 128)), code: providerCode(output.code) },
    usage: usage && typeof usage === 'object' ? kept(USAGE_KEYS, usage, (value) => keptNumber(value) ?? keptText(value, 32)) : undefined,
  });
}
