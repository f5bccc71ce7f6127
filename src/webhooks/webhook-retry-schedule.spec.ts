import { createHmac } from 'node:crypto';
import { nextAttemptAt, RETRY_DELAYS_MS } from './webhook-retry-schedule';
import { signWebhook } from './webhook-signature';

describe('webhook retry schedule', () => {
  it('follows about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    const at = (attempt: number) => nextAttemptAt(attempt, 0, () => 0);
    expect([1, 2, 3, 4, 5, 6, 7].map(at)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(at(8)).toBeNull();
    expect(RETRY_DELAYS_MS).toHaveLength(7);
  });

  it('is at most 10% late (jitter)', () => {
    expect(nextAttemptAt(1, 1_000, () => 0.999)).toBeLessThanOrEqual(1_000 + 5_500);
    expect(nextAttemptAt(1, 1_000, () => 0.5)).toBe(1_000 + 5_250);
  });
});

describe('signWebhook', () => {
  it('is v1, + base64 HMAC-SHA256 of id.timestamp.body keyed with the decoded secret', () => {
    const key = Buffer.alloc(32, 7);
    const signature = signWebhook(`whsec_${key.toString('base64')}`, 'evt_1', new Date(1_700_000_000_000), '{"a":1}');
    expect(signature).toBe(`v1,${createHmac('sha256', key).update('evt_1.1700000000.{"a":1}').digest('base64')}`);
  });
});
