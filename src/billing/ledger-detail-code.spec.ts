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
