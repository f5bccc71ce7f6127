import type { PollOutcome } from '../upstream-adapter';
import type { AlphaVideoResult } from './alpha-api.client';

export const ALPHA_STATUS = { succeeded: 1, generating: 5, deleted: 6, moderationFailed: 7, generationFailed: 8 } as const;

/**
 * A result query in the gateway's terms. The provider reports no progress figure, so none is
 * returned and the sync job estimates it from elapsed time (never decreasing).
 */
export function toPollOutcome(result: AlphaVideoResult, raw: unknown): PollOutcome {
  switch (Number(result.status)) {
    case ALPHA_STATUS.succeeded: {
      const width = Number(result.outputWidth);
      const height = Number(result.outputHeight);
      return {
        state: 'succeeded',
        videoUrl: typeof result.url === 'string' && result.url ? result.url : undefined,
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
