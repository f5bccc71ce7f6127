import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { compact, keptNumber, keptText } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import { GOOGLE_RPC_CODES, VEO_STATUS_REASONS } from './veo-errors';
import type { VeoOperation } from './veo-protocol';

/** The moderation outcome named in a failed task's reason. */
export const VEO_RAI_FILTERED = 'raiMediaFiltered';

/**
 * A long-running operation -> the gateway's poll outcome. Not done: running (Veo has no queue
 * state). Done with samples: succeeded, downloaded from the sample's URI (the channel's key goes
 * with it). Done with RAI-filtered counts and no sample: moderation. Done with an error: failed,
 * naming the google.rpc code, never the message.
 */
export function mapVeoOperation(body: unknown, policy?: LinkPolicy): PollOutcome {
  const operation = (body && typeof body === 'object' ? body : {}) as VeoOperation;
  const raw = storedVeoOperation(operation);
  if (operation.done !== true) return { state: 'running', raw };
  if (operation.error && typeof operation.error === 'object') {
    const status = typeof operation.error.code === 'number' ? GOOGLE_RPC_CODES[operation.error.code] : undefined;
    return { state: 'failed', failReason: failureReason(FAILURE.generation, status, status ? VEO_STATUS_REASONS[status] : undefined), raw };
  }
  const result = operation.response?.generateVideoResponse;
  const uri = result?.generatedSamples?.[0]?.video?.uri;
  if (typeof uri === 'string' && uri !== '') {
    if (!isShowableLink(uri, policy))
      return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the video cannot be downloaded from this channel'), raw };
    return { state: 'succeeded', progress: 100, videoUrl: uri, raw };
  }
  if (Number(result?.raiMediaFilteredCount ?? 0) > 0)
    return { state: 'failed', failReason: failureReason(FAILURE.moderation, VEO_RAI_FILTERED), raw };
  return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider returned no video'), raw };
}

/** What a task keeps of an operation: its name, state, error code and sample count; no provider text, no URI. */
export function storedVeoOperation(operation: VeoOperation): unknown {
  const result = operation.response?.generateVideoResponse;
  return storedAnswer({
    name: keptText(operation.name, 160),
    done: typeof operation.done === 'boolean' ? operation.done : undefined,
    error: operation.error && typeof operation.error === 'object' ? compact({ code: keptNumber(operation.error.code) }) : undefined,
    samples: Array.isArray(result?.generatedSamples) ? result.generatedSamples.length : undefined,
    raiMediaFilteredCount: keptNumber(result?.raiMediaFilteredCount),
  });
}
