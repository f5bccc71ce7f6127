import { Injectable } from '@nestjs/common';
import { SharedRateLimiters } from './shared-rate-limiters.service';

/** A provider's rate limit: at most `limit` calls in any `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/**
 * Each lane's window is this much longer than the provider's, so that calls sent one lane-window
 * apart still fall into different provider windows when their arrival is delayed by up to 20 % of
 * the window (200 ms for per-second limits) more than the earlier one's.
 */
export const SAFETY_MARGIN = 0.2;
/** Above this many lanes, a lane holds several points (fewer Redis round trips per call). */
const MAX_LANES = 10;

export interface LaneLayout {
  lanes: number;
  pointsPerLane: number;
  laneWindowMs: number;
}

/**
 * Why lanes: a fixed window of `limit` points lets `limit` calls through at the end of one window
 * and `limit` more at the start of the next, twice the limit within a moment. A lane of one point
 * per `laneWindowMs` is used at most once in any such span, so `limit` lanes never put more than
 * `limit` calls into one window; a lane of p points at most 2p - 1, hence the layout for large limits.
 */
export function laneLayout({ limit, windowMs }: RateLimit): LaneLayout {
  const laneWindowMs = Math.ceil(windowMs * (1 + SAFETY_MARGIN));
  if (limit <= MAX_LANES) return { lanes: limit, pointsPerLane: 1, laneWindowMs };
  return { lanes: MAX_LANES, pointsPerLane: Math.max(1, Math.floor((Math.floor(limit / MAX_LANES) + 1) / 2)), laneWindowMs };
}

/**
 * Keeps calls to a provider under its rate limit across every instance (shared through Redis when
 * REDIS_URL is set), waiting for a free lane rather than failing a short burst.
 */
@Injectable()
export class SpacedRateLimiter {
  constructor(private readonly limiters: SharedRateLimiters) {}

  /** Resolves true once the call may go out, or false (at once) when that would take longer than `maxWaitMs`. */
  async acquire(key: string, limit: RateLimit, maxWaitMs: number): Promise<boolean> {
    const { lanes, pointsPerLane, laneWindowMs } = laneLayout(limit);
    const name = `spaced:${pointsPerLane}:${laneWindowMs}`;
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      let soonest = laneWindowMs;
      const first = Math.floor(Math.random() * lanes);
      for (let i = 0; i < lanes; i++) {
        const decision = await this.limiters.consume(name, pointsPerLane, laneWindowMs, `${key}#${(first + i) % lanes}`);
        if (decision.allowed) return true;
        soonest = Math.min(soonest, decision.msBeforeNext);
      }
      // A few ms more, so the lane's key has surely expired when we come back.
      const waitMs = soonest + 5;
      if (Date.now() + waitMs > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
