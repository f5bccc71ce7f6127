import { UpstreamError } from '../upstream-adapter';

/** What one submit on a channel tells its breaker. */
export type BreakerOutcome = 'accepted' | 'fault' | 'neutral';

/**
 * A failed submit's meaning for its channel's breaker: the provider's own trouble (5xx, timeouts,
 * refused connections, auth and balance: kinds `transient` and `channel`) is a fault; the client's
 * bad input, moderation, back-pressure and a submit stopped before its call are not.
 */
export function breakerOutcomeOf(error: unknown): BreakerOutcome {
  if (!(error instanceof UpstreamError) || error.details.beforeCall) return 'neutral';
  return error.kind === 'transient' || error.kind === 'channel' ? 'fault' : 'neutral';
}
