import type { CatalogEntry } from '../../catalog/catalog-entry';
import { XAI_BUILTIN_ENTRIES } from './xai-catalog';
import { mapXaiError } from './xai-errors';
import { buildXaiBody, xaiRequestIdOf } from './xai-protocol';
import { mapXaiQuery } from './xai-query-mapping';
import type { XaiVideoRequestDto } from './xai-request.dto';
import { settleXaiRequest } from './xai-task-rules';
import { XAI_FAMILY } from './xai.family';
import { builtinEntry, refusedField } from '../shared/family.spec-support';

const entryOf = (model: string, changes: Partial<CatalogEntry> = {}): CatalogEntry => builtinEntry(XAI_BUILTIN_ENTRIES, model, changes);
const settle = (model: string, body: Partial<XaiVideoRequestDto>, hasImage = false, changes: Partial<CatalogEntry> = {}) =>
  settleXaiRequest(model, { entry: entryOf(model, changes) }, { model, prompt: 'p', ...body }, hasImage);
/** A body as it came over the wire. */
const bytes = (text: string): unknown => (text === '' ? '' : JSON.parse(text));

describe('xAI request rules, read from the catalog entry', () => {
  it('text-to-video: default 8 s at 480p 16:9, audio left to xAI (on) and billed so', () => {
    expect(settle('grok-imagine-video', {})).toEqual({
      mode: 'text-to-video',
      duration: 8,
      resolution: '480p',
      aspectRatio: '16:9',
      audioBilled: true,
      extra: {},
    });
    expect(settle('grok-imagine-video-1.5', { size: '1080x1920', duration: 15, audio: false })).toMatchObject({
      resolution: '1080p',
      aspectRatio: '9:16',
      duration: 15,
      generateAudio: false,
      audioBilled: false,
    });
    expect(settle('grok-imagine-video', { size: '848x480' })).toMatchObject({ resolution: '480p', aspectRatio: '16:9' });
  });

  it('image-to-video takes the image shape unless asked', () => {
    expect(settle('grok-imagine-video', { resolution: '720p' }, true)).toEqual({
      mode: 'image-to-video',
      duration: 8,
      resolution: '720p',
      audioBilled: true,
      extra: {},
    });
    expect(settle('grok-imagine-video', { aspect_ratio: '3:2' }, true)).toMatchObject({ aspectRatio: '3:2' });
  });

  it.each([
    ['1080p on grok-imagine-video', 'grok-imagine-video', { resolution: '1080p' }, false, 'resolution'],
    ['16 s', 'grok-imagine-video', { duration: 16 }, false, 'duration'],
    ['0 s', 'grok-imagine-video', { duration: 0 }, false, 'duration'],
    ['21:9', 'grok-imagine-video', { aspect_ratio: '21:9' }, false, 'aspect_ratio'],
    ['a blank prompt', 'grok-imagine-video', { prompt: '  ' }, false, 'prompt'],
    ['a last frame', 'grok-imagine-video', { last_frame: 'https://x/e.png' }, true, 'last_frame'],
    ['a seed', 'grok-imagine-video', { seed: 3 }, false, 'seed'],
    ['a negative prompt', 'grok-imagine-video', { negative_prompt: 'blur' }, false, 'negative_prompt'],
    ['metadata.output', 'grok-imagine-video', { metadata: { output: { upload_url: 'https://x' } } }, false, 'metadata.output'],
    ['size and aspect_ratio disagreeing', 'grok-imagine-video', { size: '1280x720', aspect_ratio: '1:1' }, false, 'aspect_ratio'],
  ])('refuses %s, naming the field', (_name, model, body, hasImage, field) => {
    expect(refusedField(() => settle(model, body as Partial<XaiVideoRequestDto>, hasImage))).toBe(field);
  });

  it('a narrowed or new entry rules alone: modes, lengths, audio', () => {
    const imageOnly = { modes: ['image-to-video' as const], durations: [6, 10], defaultDuration: 6, audio: 'none' as const };
    expect(refusedField(() => settle('grok-imagine-video', {}, false, imageOnly))).toBe('input_reference');
    expect(settle('grok-imagine-video', {}, true, imageOnly)).toMatchObject({ duration: 6, generateAudio: false, audioBilled: false });
    expect(refusedField(() => settle('grok-imagine-video', { audio: true }, true, imageOnly))).toBe('audio');
    expect(settle('grok-imagine-video', {}, false, { audio: 'always' })).toMatchObject({ generateAudio: true });
  });

  it('takes no route options; checks a channel key as xai-...', () => {
    expect(XAI_FAMILY.checkRouteOptions!({})).toBeNull();
    expect(XAI_FAMILY.checkRouteOptions!({ audio_field: 'bgm' })).toMatchObject({ field: 'audio_field' });
    const { pattern } = XAI_FAMILY.apiKeyFormat!;
    expect(pattern.test(`xai-${'a1B2'.repeat(20)}`)).toBe(true);
    expect(pattern.test('sk-abc123abc123abc123abc123')).toBe(false);
    expect(pattern.test(`Bearer xai-${'a1'.repeat(20)}`)).toBe(false);
  });
});

describe('xAI wire', () => {
  it('builds the create body: metadata first, then the gateway fields, the frame as image.url', () => {
    expect(
      buildXaiBody(
        { prompt: 'p', duration: 6, resolution: '720p', aspectRatio: '9:16', generateAudio: false, extra: { user: 'u1' } },
        'grok-imagine-video',
        'data:image/png;base64,AAAA',
      ),
    ).toEqual({
      user: 'u1',
      model: 'grok-imagine-video',
      prompt: 'p',
      duration: 6,
      resolution: '720p',
      aspect_ratio: '9:16',
      image: { url: 'data:image/png;base64,AAAA' },
      generate_audio: false,
    });
    expect(xaiRequestIdOf(bytes('{"request_id":"0b0f5a8e-2f38-4b6c-9bb1-7e0d8f7b3a11"}'))).toBe('0b0f5a8e-2f38-4b6c-9bb1-7e0d8f7b3a11');
    expect(xaiRequestIdOf(bytes('{"id":"x"}'))).toBeUndefined();
  });

  it('reads a 202 (with no body, or pending with progress) as still running', () => {
    expect(mapXaiQuery(202, {})).toEqual({ state: 'queued', progress: 0, raw: {} });
    expect(mapXaiQuery(202, bytes('{"status":"pending","progress":40}'))).toEqual({
      state: 'running',
      progress: 40,
      raw: { status: 'pending', progress: 40 },
    });
    expect(mapXaiQuery(200, bytes('{"status":"processing"}'))).toMatchObject({ state: 'running' });
  });

  it('reads done with its link and usage.cost_in_usd_ticks as provider usage; the link is not kept', () => {
    const done = mapXaiQuery(
      200,
      bytes(
        '{"status":"done","video":{"url":"https://vidgen.x.ai/xai-vidgen-bucket/xai-video-1.mp4","duration":6,"respect_moderation":true},' +
          '"model":"grok-imagine-video","progress":100,"usage":{"cost_in_usd_ticks":500000000}}',
      ),
    );
    expect(done).toEqual({
      state: 'succeeded',
      progress: 100,
      videoUrl: 'https://vidgen.x.ai/xai-vidgen-bucket/xai-video-1.mp4',
      raw: {
        status: 'done',
        progress: 100,
        model: 'grok-imagine-video',
        video: { duration: 6, respect_moderation: true },
        usage: { cost_in_usd_ticks: 500000000 },
      },
      providerUsage: { unit: 'usd_ticks', amount: 500000000 },
    });
  });

  it('reads respect_moderation: false as content moderation failed, still reporting the usage', () => {
    expect(
      mapXaiQuery(
        200,
        bytes('{"status":"done","video":{"duration":6,"respect_moderation":false},"usage":{"cost_in_usd_ticks":300000000}}'),
      ),
    ).toMatchObject({
      state: 'failed',
      failReason: 'content moderation failed: the video did not pass the provider moderation',
      providerUsage: { unit: 'usd_ticks', amount: 300000000 },
    });
  });

  it.each([
    [
      '{"status":"failed","error":{"code":"internal_error","message":"boom at http://10.0.0.1"}}',
      'generation failed: internal_error: provider internal error',
    ],
    [
      '{"status":"failed","error":{"code":"invalid_argument","message":"Content policy violation"}}',
      'content moderation failed: invalid_argument',
    ],
    ['{"status":"failed"}', 'generation failed'],
    ['{"status":"expired"}', 'upstream timeout: the provider expired the request'],
    ['{"status":"cancelled"}', 'generation failed: cancelled: the provider cancelled the request'],
    ['{"status":"canceled"}', 'generation failed: cancelled: the provider cancelled the request'],
  ])('reads %s as failed: %s', (body, reason) => {
    expect(mapXaiQuery(200, bytes(body))).toMatchObject({ state: 'failed', failReason: reason });
  });

  it.each(['completed', 'COMPLETED', 'succeeded'])('reads %s with a link as done', (status) => {
    const body = `{"status":"${status}","video":{"url":"https://vidgen.x.ai/xai-vidgen-bucket/xai-video-1.mp4","respect_moderation":true}}`;
    expect(mapXaiQuery(200, bytes(body))).toMatchObject({
      state: 'succeeded',
      videoUrl: 'https://vidgen.x.ai/xai-vidgen-bucket/xai-video-1.mp4',
    });
  });

  it('an unknown status is transient', () => {
    expect(() => mapXaiQuery(200, bytes('{"status":"weird"}'))).toThrow(/unexpected status "weird"/);
  });

  it.each([
    [
      400,
      {
        code: 'Client specified an invalid argument',
        error: 'Incorrect API key provided: xa***00. You can obtain an API key from https://console.x.ai.',
      },
      'channel',
    ],
    [
      429,
      {
        code: 'Some resource has been exhausted',
        error: 'Your team t has either used all available credits or reached its monthly spending limit.',
      },
      'channel',
    ],
    [429, { code: 'Too many requests', error: 'slow down' }, 'backpressure'],
    [400, { code: 'Client specified an invalid argument', error: 'rejected by the content policy' }, 'moderation'],
    [400, { code: 'Client specified an invalid argument', error: 'resolution 1080p is not supported' }, 'invalid_input'],
    [422, { error: { message: 'missing field prompt', code: 'invalid_request' } }, 'invalid_input'],
    [404, { code: 'Some requested entity was not found', error: 'not found' }, 'channel'],
    [500, {}, 'transient'],
  ])('maps HTTP %i %j to %s, never repeating its text', (status, body, kind) => {
    const error = mapXaiError(status, body, undefined, 0);
    expect(error.kind).toBe(kind);
    expect(error.message).not.toMatch(/xa\*\*\*|team|slow down|content policy|1080p|missing field/);
  });
});
