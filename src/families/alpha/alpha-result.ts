import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { capStoredResponse, compact, keptNumber, keptText } from '../../upstream/provider-text';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import type { AlphaVideoResult } from './alpha-api.client';

export const ALPHA_STATUS = { succeeded: 1, generating: 5, deleted: 6, moderationFailed: 7, generationFailed: 8 } as const;

/**
 * A result query in the gateway's terms. The provider reports no progress figure, so none is
 * returned and the sync job estimates it from elapsed time (never decreasing). A video URL that
 * may not be shown (`policy`) counts as none; the task keeps the documented fields only.
 */
export function toPollOutcome(result: AlphaVideoResult, policy?: LinkPolicy): PollOutcome {
  const raw = storedAlphaResponse(result, policy);
  switch (Number(result.status)) {
    case ALPHA_STATUS.succeeded: {
      const width = Number(result.outputWidth);
      const height = Number(result.outputHeight);
      return {
        state: 'succeeded',
        videoUrl: isShowableLink(result.url, policy) ? result.url : undefined,
        outputSize: width > 0 && height > 0 ? `${width}x${height}` : undefined,
        raw,
      };
    }
    case ALPHA_STATUS.moderationFailed:
      return { state: 'failed', failReason: 'content moderation failed', raw };
    case ALPHA_STATUS.generationFailed:
    case ALPHA_STATUS.deleted:
      return { state: 'failed', failReason: 'generation failed', raw };
    default:
      // 5 means waiting or generating alike; once the provider holds the task it counts as running.
      return { state: 'running', raw };
  }
}

/** The documented fields of a result query (`Resp`, in its envelope), a few KB at most; no unusable link. */
export function storedAlphaResponse(result: AlphaVideoResult, policy?: LinkPolicy): unknown {
  const cut = (value: unknown, length: number) => (typeof value === 'string' ? value.slice(0, length) : undefined);
  const resp = compact({
    id: keptNumber(result.id) ?? keptText(result.id, 64),
    status: keptNumber(result.status),
    url: isShowableLink(result.url, policy) ? (result.url as string) : undefined,
    outputWidth: keptNumber(result.outputWidth),
    outputHeight: keptNumber(result.outputHeight),
    seed: keptNumber(result.seed),
    prompt: cut(result.prompt, 1000),
    negative_prompt: cut(result.negative_prompt, 1000),
    style: keptText(result.style, 64),
    resolution_ratio: keptText(result.resolution_ratio, 32) ?? keptNumber(result.resolution_ratio),
    create_time: keptNumber(result.create_time) ?? keptText(result.create_time, 64),
    modify_time: keptNumber(result.modify_time) ?? keptText(result.modify_time, 64),
  });
  return capStoredResponse({ ErrCode: 0, Resp: resp ?? {} });
}
