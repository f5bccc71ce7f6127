import { mapGammaError } from './gamma-errors';
import { buildGammaSubmitBody, outputSizeOf } from './gamma-protocol';
import { mapGammaQuery } from './gamma-query-mapping';

describe('family C data plane protocol', () => {
  it('puts the prompt first and every reference as reference_image', () => {
    expect(
      buildGammaSubmitBody(
        { prompt: 'p', references: ['asset://a-1', 'https://x/y.png'], resolution: '480p', duration: 4, seed: 0, ratio: '9:16' },
        'gamma-2-0-fast',
      ),
    ).toEqual({
      model: 'gamma-2-0-fast',
      content: [
        { type: 'text', text: 'p' },
        { type: 'image_url', image_url: { url: 'asset://a-1' }, role: 'reference_image' },
        { type: 'image_url', image_url: { url: 'https://x/y.png' }, role: 'reference_image' },
      ],
      resolution: '480p',
      ratio: '9:16',
      duration: 4,
      seed: 0,
    });
  });

  it('maps every provider status', () => {
    expect(mapGammaQuery({ status: 'queued' }).state).toBe('queued');
    expect(mapGammaQuery({ status: 'running' }).state).toBe('running');
    expect(mapGammaQuery({ status: 'succeeded', content: { video_url: 'https://v' }, resolution: '720p', ratio: '16:9' })).toMatchObject({
      state: 'succeeded',
      videoUrl: 'https://v',
      outputSize: '1280x720',
    });
    expect(mapGammaQuery({ status: 'failed', error: { code: 'InternalServiceError', message: 'oops at http://10.0.0.1' } })).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: InternalServiceError: provider internal error',
      raw: { status: 'failed', error: { code: 'InternalServiceError' } },
    });
    expect(mapGammaQuery({ status: 'failed', error: { code: 'Brand.New', message: 'oops' } }).failReason).toBe(
      'generation failed: Brand.New',
    );
    expect(mapGammaQuery({ status: 'failed', error: { code: 'OutputVideoSensitiveContentDetected', message: 'oops' } }).failReason).toBe(
      'content moderation failed: OutputVideoSensitiveContentDetected: the output may contain sensitive content',
    );
    expect(mapGammaQuery({ status: 'succeeded', content: { video_url: 'file:///etc/passwd' } })).toMatchObject({
      state: 'failed',
      raw: { content: {} },
    });
    expect(mapGammaQuery({ status: 'cancelled' }).failReason).toBe('generation failed: the task was cancelled upstream');
    expect(mapGammaQuery({ status: 'expired' }).failReason).toBe('upstream timeout: the provider expired the task');
    expect(() => mapGammaQuery({ status: 'weird' })).toThrow(/unknown task status/);
  });

  it('computes output sizes from resolution and ratio', () => {
    expect(outputSizeOf('1080p', '9:16')).toBe('1080x1920');
    expect(outputSizeOf('480p', '21:9')).toBe('1120x480');
    expect(outputSizeOf('720p', '1:1')).toBe('720x720');
    expect(outputSizeOf('720p', 'adaptive')).toBeUndefined();
  });

  it('maps synchronous errors to the gateway kinds', () => {
    const kind = (status: number, code?: string) =>
      mapGammaError(status, code ? { error: { code, message: 'm' } } : undefined, undefined).kind;
    expect(kind(400, 'InvalidParameter')).toBe('invalid_input');
    expect(kind(400, 'InputImageSensitiveContentDetected.PrivacyInformation')).toBe('invalid_input');
    expect(kind(429, 'RateLimitExceeded')).toBe('backpressure');
    expect(kind(401, 'AuthenticationError')).toBe('channel');
    expect(kind(403, 'AccountOverdueError')).toBe('channel');
    expect(kind(404, 'ModelNotOpen')).toBe('channel');
    expect(kind(404)).toBe('channel');
    expect(kind(500, 'InternalServiceError')).toBe('transient');
    expect(mapGammaError(429, undefined, '7').details.retryAfterSeconds).toBe(7);
    expect(
      mapGammaError(400, { error: { code: 'InputImageSensitiveContentDetected.PrivacyInformation', message: 'x' } }, undefined).message,
    ).toBe('content moderation failed: InputImageSensitiveContentDetected.PrivacyInformation: the input image may contain a real person');
    expect(mapGammaError(400, { error: { code: 'InvalidParameter', message: 'key sk-1 at http://10.0.0.1' } }, undefined).message).toBe(
      'InvalidParameter: invalid parameter',
    );
  });
});
