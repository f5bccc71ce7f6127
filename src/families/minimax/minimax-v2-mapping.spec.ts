import { mapMinimaxV2Error, mapMinimaxV2Query } from './minimax-v2-mapping';
import { buildMinimaxV2Body } from './minimax-v2-protocol';

const envelope = (type: string, httpCode: string) => ({
  type: 'error',
  error: { type, message: 'secret at http://10.0.0.1', http_code: httpCode },
});

describe('MiniMax v2 wire', () => {
  it('builds the content array: the prompt as the one text, the frames by role, ratio for text-to-video only', () => {
    const image = (ref: { url: string } | { staged: unknown }) => ('url' in ref ? ref.url : 'data:image/png;base64,QQ==');
    const staged = { staged: { sha256: 's', mime: 'image/png' as const, size: 1 } };
    const request = { api: 'v2' as const, prompt: 'p', duration: 7, resolution: '2K' as const, metadata: { aigc_watermark: true } };
    const body = buildMinimaxV2Body({ ...request, firstFrame: { url: 'https://x/a.png' }, lastFrame: staged }, 'MiniMax-H3', image);
    expect(body.content).toEqual([
      { type: 'text', text: 'p' },
      { type: 'image_url', image_url: { url: 'https://x/a.png' }, role: 'first_frame' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,QQ==' }, role: 'last_frame' },
    ]);
    expect(body).toMatchObject({ aigc_watermark: true, model: 'MiniMax-H3', duration: 7, resolution: '2K' });
    expect(body).not.toHaveProperty('ratio');
    expect(
      buildMinimaxV2Body({ api: 'v2', prompt: 'p', duration: 5, resolution: '768P', ratio: '9:16', metadata: {} }, 'MiniMax-H3', image),
    ).toMatchObject({
      ratio: '9:16',
    });
  });

  it.each([
    [401, envelope('authentication_error', '401'), 'channel'],
    [402, envelope('insufficient_balance_error', '402'), 'channel'],
    [200, envelope('insufficient_quota', '400'), 'channel'],
    [429, envelope('rate_limit_error', '429'), 'backpressure'],
    [400, envelope('input_sensitive_error', '400'), 'moderation'],
    [400, envelope('invalid_request_error', '400'), 'invalid_input'],
    [500, envelope('api_error', '500'), 'transient'],
    [503, {}, 'transient'],
  ])('an error envelope under HTTP %s (%j) is %s, the message never kept', (status, body, kind) => {
    const error = mapMinimaxV2Error(status, body, '5', Date.now());
    expect(error.kind).toBe(kind);
    expect(error.message).not.toMatch(/10\.0\.0\.1|secret/);
  });

  it('maps queued, running, succeeded (usage kept), failed by its code, and cancelled and expired as ends', () => {
    const task = (fields: object) => ({ task: { id: '1', ...fields } });
    expect(mapMinimaxV2Query(task({ status: 'queued' })).state).toBe('queued');
    expect(mapMinimaxV2Query(task({ status: 'running' })).state).toBe('running');
    expect(
      mapMinimaxV2Query(
        task({ status: 'succeeded', content: { url: 'https://cdn.example.com/v.mp4' }, usage: { total_seconds: 6, output_seconds: 6 } }),
      ),
    ).toMatchObject({ state: 'succeeded', videoUrl: 'https://cdn.example.com/v.mp4', providerUsage: { unit: 'video_seconds', amount: 6 } });
    expect(mapMinimaxV2Query(task({ status: 'failed', error: { code: '1027', message: 'x' } })).failReason).toBe(
      'content moderation failed: 1027: the output was flagged as sensitive',
    );
    expect(mapMinimaxV2Query(task({ status: 'failed', error: { code: 'output_sensitive', message: 'x' } })).failReason).toBe(
      'content moderation failed: output_sensitive',
    );
    expect(mapMinimaxV2Query(task({ status: 'failed', error: { code: 'http://10.0.0.1' } })).failReason).toBe('generation failed');
    expect(mapMinimaxV2Query(task({ status: 'cancelled' }))).toMatchObject({ state: 'failed', cancelledUpstream: true });
    expect(mapMinimaxV2Query(task({ status: 'expired' }))).toMatchObject({
      state: 'failed',
      failReason: expect.stringMatching(/^generation failed: expired/),
    });
    expect(() => mapMinimaxV2Query(task({ status: 'Success' }))).toThrow(/unexpected status/);
    expect(() => mapMinimaxV2Query(envelope('invalid_request_error', '400'))).toThrow();
  });
});
