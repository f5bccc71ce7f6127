import type { Settlement } from '../../billing/settlement';
import { settlementOutcome } from './settlement-outcome';

const shape = { seconds: 4, resolution: '720p', audio: false };
const settlement = (settled: Settlement['settled'], refund: number, delivered: Settlement['delivered']): Settlement => ({
  settled,
  quota: 1000 - refund,
  refund,
  delivered,
  detail: '',
});

describe('settlementOutcome', () => {
  it.each([
    ['read, charge stands', settlement('delivered', 0, shape), 'unreadable', 'as_charged'],
    ['read, less than asked', settlement('delivered', 400, shape), 'unreadable', 'refunded_difference'],
    ['read, no price fits', settlement('as_asked', 0, shape), 'unreadable', 'unpriced'],
    ['stored copy unreadable', settlement('as_asked', 0, null), 'unreadable', 'unreadable'],
    ['no copy kept', settlement('as_asked', 0, null), 'not_stored', 'not_stored'],
  ] as const)('%s: %s', (_, given, noVideo, outcome) => {
    expect(settlementOutcome(given, noVideo)).toBe(outcome);
  });
});
