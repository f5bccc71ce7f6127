/**
 * A channel's breaker as data, and its moves: pure functions of the state and the time, so that every
 * instance (and a test with a hand-moved clock) moves it the same way. Closed: submits go to the
 * channel. Open: none until `retryAt`. Half-open (past `retryAt`): one submit at a time tries it; the
 * provider accepting a submit closes it, a fault opens it again for twice as long (at most `maxCooldownMs`).
 * While a streak of faults runs on a closed channel, no more submits go to it at once than the faults
 * still missing to open it (`sending`).
 */
export type BreakerPhase = 'closed' | 'half_open' | 'open';

export interface BreakerState {
  /** Provider faults in a row since the provider last accepted a submit on the channel. */
  failures: number;
  /** When it last opened (ms epoch); null while closed. */
  openedAt: number | null;
  /** From when a submit may try the channel again (ms epoch); null while closed. */
  retryAt: number | null;
  /** Openings in a row without an acceptance between: the cool-down doubles with each. */
  trips: number;
  /** A half-open trial is under way until then (ms epoch): one submit at a time; a trial that never reports frees it then. */
  trialUntil: number | null;
  /** Submits sent to the closed channel while a streak of faults runs, not answered yet. */
  sending: number;
  /** Those are forgotten then (ms epoch): a submit whose instance died never answers. */
  sendingUntil: number | null;
}

export interface BreakerRules {
  /** Faults in a row that open a closed breaker. */
  failures: number;
  /** The first cool-down. */
  cooldownMs: number;
  maxCooldownMs: number;
}

export const CLOSED: BreakerState = Object.freeze({
  failures: 0,
  openedAt: null,
  retryAt: null,
  trips: 0,
  trialUntil: null,
  sending: 0,
  sendingUntil: null,
});

export function phaseOf(state: BreakerState, now: number): BreakerPhase {
  if (state.retryAt === null) return 'closed';
  return now < state.retryAt ? 'open' : 'half_open';
}

/** The cool-down of the `trips`-th opening in a row: doubled each time, at most the maximum. */
export function cooldownFor(trips: number, rules: BreakerRules): number {
  return Math.min(rules.maxCooldownMs, rules.cooldownMs * 2 ** Math.max(0, trips - 1));
}

/**
 * A provider fault on the channel. Closed, the count goes up and opens it at the threshold; half-open
 * (the trial, or a call sent before it opened), it opens again for twice as long; open, a late
 * answer of a call sent earlier changes only the count.
 */
export function afterFault(state: BreakerState, now: number, rules: BreakerRules): BreakerState {
  const failures = state.failures + 1;
  const phase = phaseOf(state, now);
  if (phase === 'open' || (phase === 'closed' && failures < rules.failures)) return { ...state, failures };
  const trips = state.trips + 1;
  return { failures, openedAt: now, retryAt: now + cooldownFor(trips, rules), trips, trialUntil: null, sending: 0, sendingUntil: null };
}

/** The provider accepted a submit on the channel: closed, whatever it was. */
export function afterAcceptance(): BreakerState {
  return CLOSED;
}

/** The trial a half-open channel allows, until `now + leaseMs`; null when the channel is not half-open or a trial is under way. */
export function withTrial(state: BreakerState, now: number, leaseMs: number): BreakerState | null {
  if (phaseOf(state, now) !== 'half_open') return null;
  if (state.trialUntil !== null && state.trialUntil > now) return null;
  return { ...state, trialUntil: now + leaseMs };
}

/** A trial that ended neither way (the client's bad input, back-pressure, a submit that stopped): another submit may try. */
export function withoutTrial(state: BreakerState): BreakerState {
  return state.trialUntil === null ? state : { ...state, trialUntil: null };
}

/**
 * One more submit to a closed channel whose streak of faults runs, until `now + leaseMs`; null when
 * the faults so far and the submits under way would reach the threshold (or it is not such a channel).
 */
export function withSending(state: BreakerState, now: number, leaseMs: number, rules: BreakerRules): BreakerState | null {
  if (phaseOf(state, now) !== 'closed' || state.failures === 0) return null;
  const sending = state.sendingUntil !== null && state.sendingUntil > now ? state.sending : 0;
  if (state.failures + sending >= rules.failures) return null;
  return { ...state, sending: sending + 1, sendingUntil: now + leaseMs };
}

/** One of those submits answered (or stopped). */
export function withoutSending(state: BreakerState): BreakerState {
  if (state.sending === 0) return state;
  const sending = state.sending - 1;
  return { ...state, sending, sendingUntil: sending === 0 ? null : state.sendingUntil };
}

export function sameState(a: BreakerState, b: BreakerState): boolean {
  return (
    a.failures === b.failures &&
    a.openedAt === b.openedAt &&
    a.retryAt === b.retryAt &&
    a.trips === b.trips &&
    a.trialUntil === b.trialUntil &&
    a.sending === b.sending &&
    a.sendingUntil === b.sendingUntil
  );
}

/** How a state travels between instances: '' for closed (nothing stored), else JSON. */
export function encodeState(state: BreakerState): string {
  return sameState(state, CLOSED) ? '' : JSON.stringify(state);
}

/** A stored state; closed for '' or anything unreadable (a breaker that forgets is closed, never stuck open). */
export function decodeState(raw: string | null | undefined): BreakerState {
  if (!raw) return CLOSED;
  try {
    const value = JSON.parse(raw) as Partial<BreakerState>;
    const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : 0);
    const time = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
    return {
      failures: count(value.failures),
      openedAt: time(value.openedAt),
      retryAt: time(value.retryAt),
      trips: count(value.trips),
      trialUntil: time(value.trialUntil),
      sending: count(value.sending),
      sendingUntil: time(value.sendingUntil),
    };
  } catch {
    return CLOSED;
  }
}
