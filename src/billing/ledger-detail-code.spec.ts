import { ledgerDetailCode } from './ledger-detail-code';

describe('ledger detail codes', () => {
  it('reads the texts the gateway writes into a code and parameters', () => {
    expect(ledgerDetailCode('alpha/v6 720p 5s: 5000 x group default ratio 1')).toEqual({
      detail_code: 'price',
      detail_params: {
        model: 'alpha/v6',
        resolution: '720p',
        seconds: 5,
        base: 5000,
        group: 'default',
        ratio: 1,
        audio: 0,
        fast_motion: 0,
      },
    });
    expect(ledgerDetailCode('veo/3 1080p 8s (audio, fast motion): 16000 x group vip ratio 0.8')?.detail_params).toMatchObject({
      audio: 1,
      fast_motion: 1,
      ratio: 0.8,
    });
    expect(ledgerDetailCode('opening balance')).toEqual({ detail_code: 'opening_balance', detail_params: {} });
    expect(ledgerDetailCode('redemption code …MN56 (#7)')).toEqual({
      detail_code: 'redemption_code',
      detail_params: { hint: 'MN56', id: 7 },
    });
    expect(
      ledgerDetailCode(
        'key_quota_exceeded: api key quota exceeded: this key may spend 50 units in all, 10 are left and this request costs 20 (key 7)',
      ),
    ).toEqual({ detail_code: 'refused_key_quota_exceeded', detail_params: { key: 7, limit: 50, left: 10, cost: 20 } });
    expect(
      ledgerDetailCode(
        'key_budget_exceeded: api key budget exceeded: 5 units left of 100 per 1d and this request costs 20; resets at 2026-01-02T00:00:00.000Z (key 3)',
      ),
    ).toEqual({
      detail_code: 'refused_key_budget_exceeded',
      detail_params: { key: 3, left: 5, budget: 100, period: '1d', cost: 20, resets_at: 1767312000 },
    });
    expect(ledgerDetailCode('key_expired: api key expired at 2026-01-02T00:00:00.000Z (key 3)')).toEqual({
      detail_code: 'refused_key_expired',
      detail_params: { key: 3, at: 1767312000 },
    });
    expect(ledgerDetailCode('ip_not_allowed: api key may not be used from 198.51.100.7 (key 3)')?.detail_params).toEqual({
      key: 3,
      address: '198.51.100.7',
    });
    expect(
      ledgerDetailCode('key_rate_limited: rate limit reached: this api key may send 2 requests per minute (key 3)')?.detail_params,
    ).toEqual({
      key: 3,
      rpm: 2,
    });
    expect(ledgerDetailCode('released: task task_abc rejected at submit: content moderation failed')).toEqual({
      detail_code: 'released_rejected',
      detail_params: { task_id: 'task_abc', reason: 'content moderation failed' },
    });
    expect(ledgerDetailCode('refund: task task_abc failed: generation failed: E42')).toEqual({
      detail_code: 'refund_failed',
      detail_params: { task_id: 'task_abc', reason: 'generation failed: E42' },
    });
  });

  it('leaves free text (an admin adjustment) without a code', () => {
    expect(ledgerDetailCode('goodwill credit for the outage')).toBeNull();
    expect(ledgerDetailCode(null)).toBeNull();
  });
});
