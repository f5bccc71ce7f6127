import { kindForErrCode, kindForHttpStatus, alphaError } from './alpha-errors';
import { sniffImageType } from '../../common/urls/image-type';
import { nearestQuality, parseAlphaModel } from './alpha-models';
import { toPollOutcome } from './alpha-result';
import { generateBody } from './alpha-task-request';
import { deterministicTraceId } from './alpha-trace-id';

describe('family A protocol', () => {
  it('maps ErrCodes to how the gateway treats them', () => {
    for (const code of [400011, 400013, 400017, 400018, 400019, 400032, 500030, 500033]) expect(kindForErrCode(code)).toBe('invalid_input');
    for (const code of [500054, 500063]) expect(kindForErrCode(code)).toBe('moderation');
    expect(kindForErrCode(500044)).toBe('backpressure');
    expect(kindForErrCode(500090)).toBe('channel');
    expect(kindForErrCode(500069)).toBe('transient');
    expect(kindForErrCode(99999)).toBe('transient');
    expect(kindForErrCode(400099)).toBe('invalid_input');
    expect(kindForErrCode(500052, 401)).toBe('channel');
    expect(kindForHttpStatus(429)).toBe('backpressure');
    expect(kindForHttpStatus(502)).toBe('transient');
    expect(alphaError(500063, 'risky', 200).message).toBe('ErrCode 500063: content moderation failed');
    expect(alphaError(undefined, undefined, 429, 5)).toMatchObject({
      kind: 'backpressure',
      details: { retryAfterSeconds: 5, httpStatus: 429 },
    });
  });

  it('derives the same UUID-shaped trace id from the same parts, and another from others', () => {
    const id = deterministicTraceId('task_abc', 1, 'generate');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicTraceId('task_abc', 1, 'generate')).toBe(id);
    expect(deterministicTraceId('task_abc', 2, 'generate')).not.toBe(id);
  });

  it('maps query statuses', () => {
    expect(toPollOutcome({ status: 5 })).toEqual({ state: 'running', raw: { ErrCode: 0, Resp: { status: 5 } } });
    expect(toPollOutcome({ status: 1, url: 'https://x/v.mp4', outputWidth: 1920, outputHeight: 1080 })).toEqual({
      state: 'succeeded',
      videoUrl: 'https://x/v.mp4',
      outputSize: '1920x1080',
      raw: { ErrCode: 0, Resp: { status: 1, url: 'https://x/v.mp4', outputWidth: 1920, outputHeight: 1080 } },
    });
    expect(toPollOutcome({ status: 7 })).toMatchObject({ state: 'failed', failReason: 'content moderation failed' });
    expect(toPollOutcome({ status: 8 })).toMatchObject({ state: 'failed', failReason: 'generation failed' });
    expect(toPollOutcome({ status: 6 })).toMatchObject({ state: 'failed', failReason: 'generation failed' });
  });

  it('names models and sizes', () => {
    expect(parseAlphaModel('alpha/V5.5')).toBe('v5.5');
    expect(parseAlphaModel('ALPHA/v5.5')).toBeNull();
    // Which versions exist is the catalog's to say: a new one is not refused here.
    expect(parseAlphaModel('alpha/V7')).toBe('v7');
    expect(parseAlphaModel('alpha/')).toBeNull();
    expect(nearestQuality(1280, 720)).toBe('720p');
    expect(nearestQuality(1024, 1792)).toBe('1080p');
    expect(nearestQuality(640, 360)).toBe('360p');
  });

  it('builds generate bodies: aspect ratio for text, img_id for images', () => {
    const request = { mode: 'text' as const, prompt: 'p', duration: 5, quality: '720p' as const, aspect_ratio: '1:1', seed: undefined };
    expect(generateBody('v6', request)).toEqual({ model: 'v6', prompt: 'p', duration: 5, quality: '720p', aspect_ratio: '1:1' });
    expect(
      generateBody('v6', { ...request, mode: 'image', image: { source: 'url', sha256: 'x', mime: 'image/png', size: 1 } }, 12),
    ).toEqual({
      model: 'v6',
      prompt: 'p',
      duration: 5,
      quality: '720p',
      img_id: 12,
    });
  });

  it('recognizes the image formats the provider takes', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe1]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF0000WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('GIF89a', 'latin1'))).toBeNull();
  });
});
