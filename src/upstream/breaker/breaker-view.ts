import { BreakerPhase, BreakerState, phaseOf } from './breaker-state';

/** A channel's breaker as the admin API shows it (Unix seconds). */
export interface ChannelBreakerView {
  state: BreakerPhase;
  failures: number;
  opened_at: number | null;
  retry_at: number | null;
}

export function toBreakerView(state: BreakerState, now: number): ChannelBreakerView {
  return {
    state: phaseOf(state, now),
    failures: state.failures,
    opened_at: state.openedAt === null ? null : Math.floor(state.openedAt / 1000),
    retry_at: state.retryAt === null ? null : Math.ceil(state.retryAt / 1000),
  };
}
