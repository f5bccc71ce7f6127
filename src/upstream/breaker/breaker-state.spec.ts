import {
  afterAcceptance,
  afterFault,
  BreakerState,
  CLOSED,
  cooldownFor,
  decodeState,
  encodeState,
  phaseOf,
  withoutSending,
  withoutTrial,
  withSending,
  withTrial,
} from './breaker-state';

const rules = { failures: 3, cooldownMs: 1_000, maxCooldownMs: 5_000 };
const faults = (state: BreakerState, n: number, at: number) =>
  Array.from({ length: n }).reduce<BreakerState>((s) => afterFault(s, at, rules), state);

describe('breaker state', () => {
  it('opens after the threshold of faults in a row, for the cool-down', () => {
    const two = faults(CLOSED, 2, 0);
    expect(phaseOf(two, 0)).toBe('closed');
    const open = afterFault(two, 100, rules);
    expect(open).toEqual({ failures: 3, openedAt: 100, retryAt: 1_100, trips: 1, trialUntil: null, sending: 0, sendingUntil: null });
    expect(phaseOf(open, 1_099)).toBe('open');
    expect(phaseOf(open, 1_100)).toBe('half_open');
  });

  it('an acceptance in between starts the count again', () => {
    expect(phaseOf(faults(afterAcceptance(), 2, 0), 0)).toBe('closed');
    expect(afterAcceptance()).toEqual(CLOSED);
  });

  it('a late fault while open only counts; a failed trial opens it again for twice as long, at most the maximum', () => {
    const open = faults(CLOSED, 3, 0);
    expect(afterFault(open, 500, rules)).toEqual({ ...open, failures: 4 });
    const trial = withTrial(open, 1_000, 60_000)!;
    const reopened = afterFault(trial, 1_200, rules);
    expect(reopened).toMatchObject({ openedAt: 1_200, retryAt: 3_200, trips: 2, trialUntil: null });
    expect([1, 2, 3, 4, 5].map((trips) => cooldownFor(trips, rules))).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it('half-open admits one trial at a time, until the trial ends or its lease runs out', () => {
    const open = faults(CLOSED, 3, 0);
    expect(withTrial(open, 500, 10_000)).toBeNull();
    const trial = withTrial(open, 1_000, 10_000)!;
    expect(trial.trialUntil).toBe(11_000);
    expect(withTrial(trial, 5_000, 10_000)).toBeNull();
    expect(withTrial(trial, 11_000, 10_000)).not.toBeNull();
    expect(withTrial(withoutTrial(trial), 5_000, 10_000)).not.toBeNull();
    expect(withTrial(CLOSED, 0, 10_000)).toBeNull();
  });

  it('travels as JSON, closed as nothing; anything unreadable reads as closed', () => {
    const open = faults(CLOSED, 3, 0);
    expect(encodeState(CLOSED)).toBe('');
    expect(decodeState(encodeState(open))).toEqual(open);
    expect(decodeState('')).toEqual(CLOSED);
    expect(decodeState('{not json')).toEqual(CLOSED);
  });
  it('while a streak runs, no more submits at once than the faults still missing; one that never answers is forgotten after its lease', () => {
    expect(withSending(CLOSED, 0, 1_000, rules)).toBeNull();
    const one = faults(CLOSED, 1, 0);
    const first = withSending(one, 0, 1_000, rules)!;
    const second = withSending(first, 10, 1_000, rules)!;
    expect(second).toMatchObject({ sending: 2, sendingUntil: 1_010 });
    expect(withSending(second, 20, 1_000, rules)).toBeNull();
    expect(withSending(second, 1_010, 1_000, rules)).toMatchObject({ sending: 1 });
    expect(withSending(withoutSending(second), 20, 1_000, rules)).toMatchObject({ sending: 2 });
    expect(withoutSending(withoutSending(second))).toMatchObject({ sending: 0, sendingUntil: null });
    expect(withSending(faults(CLOSED, 3, 0), 0, 1_000, rules)).toBeNull();
  });
});
