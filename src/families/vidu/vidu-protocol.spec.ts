import type { CatalogEntry } from '../../catalog/catalog-entry';
import { VIDU_BUILTIN_ENTRIES } from './vidu-catalog';
import { mapViduError } from './vidu-errors';
import { buildViduBody, viduTaskIdOf } from './vidu-protocol';
import { mapViduQuery } from './vidu-query-mapping';
import type { ViduVideoRequestDto } from './vidu-request.dto';
import { settleViduRequest, viduModelOf } from './vidu-task-rules';
import { VIDU_FAMILY } from './vidu.family';
import { builtinCatalogModel, refusedField } from '../shared/family.spec-support';

/** A builtin model's catalog entry and its Vidu route, as the submit pipeline hands them over (with changes an operator made). */
const catalogModelOf = (model: string, changes: Partial<CatalogEntry> = {}) => builtinCatalogModel(VIDU_BUILTIN_ENTRIES, model, changes);
const settle = (model: string, body: Partial<ViduVideoRequestDto>, hasImage = false, changes: Partial<CatalogEntry> = {}) =>
  settleViduRequest(model, viduModelOf(catalogModelOf(model, changes)), { model, ...body }, hasImage);
/** A body as it came over the wire. */
const bytes = (text: string): unknown => JSON.parse(text);

describe('Vidu request rules, read from the catalog entry', () => {
  it('text-to-video on q3: default 5 s at 720p 16:9, audio left to Vidu (on) and billed so', () => {
    expect(settle('viduq3-pro', { prompt: 'p' })).toEqual({
      endpoint: 'text2video',
      mode: 'text-to-video',
      duration: 5,
      resolution: '720p',
      aspectRatio: '16:9',
      audio: undefined,
      audioBilled: true,
      extra: {},
    });
    expect(settle('viduq3-turbo', { prompt: 'p', size: '1080x1920', duration: 16, audio: false })).toMatchObject({
      resolution: '1080p',
      aspectRatio: '9:16',
      duration: 16,
      audio: { field: 'audio', value: false },
      audioBilled: false,
    });
  });

  it('images: img2video, or start-end2video with last_frame; q2 sends audio as bgm (off unless asked)', () => {
    expect(settle('viduq2-turbo', { resolution: '1080p' }, true)).toMatchObject({
      endpoint: 'img2video',
      mode: 'image-to-video',
      resolution: '1080p',
      audio: undefined,
      audioBilled: false,
    });
    expect(settle('viduq2-pro', { last_frame: 'https://x/e.png', audio: true }, true)).toMatchObject({
      endpoint: 'start-end2video',
      mode: 'first-last-frame',
      audio: { field: 'bgm', value: true },
      audioBilled: true,
    });
    expect(settle('viduq2-pro', { size: '1280x720' }, true)).toMatchObject({ resolution: '720p' });
  });

  it.each([
    ['viduq2-pro has no text-to-video', 'viduq2-pro', { prompt: 'p' }, false, 'input_reference'],
    ['no prompt for text-to-video', 'viduq3-pro', {}, false, 'prompt'],
    ['17 s on q3', 'viduq3-pro', { prompt: 'p', duration: 17 }, false, 'duration'],
    ['11 s on q2', 'viduq2-turbo', { duration: 11 }, true, 'duration'],
    ['a resolution the entry lacks', 'viduq3-pro', { prompt: 'p', resolution: '360p' }, false, 'resolution'],
    ['an aspect ratio the entry lacks', 'viduq3-pro', { prompt: 'p', aspect_ratio: '21:9' }, false, 'aspect_ratio'],
    ['aspect_ratio with an image', 'viduq3-pro', { aspect_ratio: '16:9' }, true, 'aspect_ratio'],
    ['a size of no listed shape', 'viduq3-pro', { prompt: 'p', size: '1000x720' }, false, 'size'],
    ['size and resolution disagreeing', 'viduq3-pro', { prompt: 'p', size: '1280x720', resolution: '1080p' }, false, 'resolution'],
    ['last_frame without a start frame', 'viduq3-pro', { prompt: 'p', last_frame: 'https://x/e.png' }, false, 'last_frame'],
    ['a metadata key the gateway sets', 'viduq3-pro', { prompt: 'p', metadata: { bgm: true } }, false, 'metadata.bgm'],
    ['off_peak in metadata', 'viduq3-pro', { prompt: 'p', metadata: { off_peak: true } }, false, 'metadata.off_peak'],
    ['a prompt over 5000', 'viduq3-pro', { prompt: 'x'.repeat(5001) }, false, 'prompt'],
  ])('refuses %s, naming the field', (_name, model, body, hasImage, field) => {
    expect(refusedField(() => settle(model, body as Partial<ViduVideoRequestDto>, hasImage))).toBe(field);
  });

  it('a narrowed or new entry rules alone: lengths, default, modes, audio none or always', () => {
    const narrowed = { durations: [4, 8], defaultDuration: 8, modes: ['text-to-video' as const], audio: 'none' as const };
    expect(settle('viduq3-pro', { prompt: 'p' }, false, narrowed)).toMatchObject({
      duration: 8,
      audio: { field: 'audio', value: false },
      audioBilled: false,
    });
    expect(refusedField(() => settle('viduq3-pro', { prompt: 'p', duration: 5 }, false, narrowed))).toBe('duration');
    expect(refusedField(() => settle('viduq3-pro', {}, true, narrowed))).toBe('input_reference');
    expect(refusedField(() => settle('viduq3-pro', { prompt: 'p', audio: true }, false, narrowed))).toBe('audio');
    expect(settle('viduq3-pro', { prompt: 'p' }, false, { audio: 'always' })).toMatchObject({ audio: { field: 'audio', value: true } });
    expect(refusedField(() => settle('viduq3-pro', { prompt: 'p', audio: false }, false, { audio: 'always' }))).toBe('audio');
  });

  it('route option audio_field: bgm or audio only', () => {
    expect(VIDU_FAMILY.checkRouteOptions!({ audio_field: 'bgm' })).toBeNull();
    expect(VIDU_FAMILY.checkRouteOptions!({ audio_field: 'sound' })).toMatchObject({ field: 'audio_field' });
    expect(VIDU_FAMILY.checkRouteOptions!({ cfg_scale: true })).toMatchObject({ field: 'cfg_scale' });
  });

  it('checks a channel key as one word: a pasted "Token <key>" is refused', () => {
    const { pattern } = VIDU_FAMILY.apiKeyFormat!;
    expect(pattern.test('vda_3f9c1b7e2d4a')).toBe(true);
    expect(pattern.test('Token vda_3f9c1b7e2d4a')).toBe(false);
    expect(pattern.test('short')).toBe(false);
  });
});

describe('Vidu wire', () => {
  it('builds the create body: metadata first, then the gateway fields under their Vidu names', () => {
    expect(
      buildViduBody(
        {
          endpoint: 'start-end2video',
          prompt: 'p',
          duration: 4,
          resolution: '1080p',
          seed: 7,
          audio: { field: 'bgm', value: true },
          extra: { movement_amplitude: 'small' },
        },
        'viduq2-pro',
        ['https://x/s.png', 'data:image/png;base64,AAAA'],
      ),
    ).toEqual({
      movement_amplitude: 'small',
      model: 'viduq2-pro',
      duration: 4,
      resolution: '1080p',
      prompt: 'p',
      seed: 7,
      bgm: true,
      images: ['https://x/s.png', 'data:image/png;base64,AAAA'],
    });
  });

  it("reads the create answer's task id (a string; a safe integer too)", () => {
    expect(viduTaskIdOf(bytes('{"task_id":"809387572068364288","state":"created","credits":10}'))).toBe('809387572068364288');
    expect(viduTaskIdOf(bytes('{"task_id":12345}'))).toBe('12345');
    expect(viduTaskIdOf(bytes('{"task_id":"a b"}'))).toBeUndefined();
  });

  it('maps the query: states, the first creation, credits as provider usage, never a link or text kept', () => {
    const success = mapViduQuery(
      bytes(
        '{"id":"8093","state":"success","err_code":"","credits":4,"payload":"","bgm":false,"off_peak":false,' +
          '"creations":[{"id":"c1","url":"https://cdn.vidu.com/v.mp4?sig=1","cover_url":"https://cdn.vidu.com/c.jpg"}]}',
      ),
    );
    expect(success).toEqual({
      state: 'succeeded',
      progress: 100,
      videoUrl: 'https://cdn.vidu.com/v.mp4?sig=1',
      raw: { id: '8093', state: 'success', credits: 4, creations: 1 },
      providerUsage: { unit: 'credits', amount: 4 },
    });
    expect(mapViduQuery(bytes('{"id":"1","state":"created","credits":10}'))).toMatchObject({
      state: 'queued',
      providerUsage: { unit: 'credits', amount: 10 },
    });
    expect(mapViduQuery(bytes('{"id":"1","state":"queueing"}'))).toMatchObject({ state: 'queued' });
    expect(mapViduQuery(bytes('{"id":"1","state":"processing"}'))).toEqual({ state: 'running', raw: { id: '1', state: 'processing' } });
    expect(() => mapViduQuery(bytes('{"id":"1","state":"scheduled"}'))).toThrow(/unexpected state "scheduled"/);
  });

  it.each([
    ['AuditSubmitIllegal', 'content moderation failed: AuditSubmitIllegal'],
    ['CreationPolicyViolation', 'content moderation failed: CreationPolicyViolation'],
    ['TaskPromptPolicyViolation', 'content moderation failed: TaskPromptPolicyViolation'],
    ['InternalServiceFailure', 'generation failed: InternalServiceFailure: provider internal error'],
    ['http://10.0.0.1/x', 'generation failed'],
  ])('a failed task with err_code %s fails as %s', (code, reason) => {
    expect(mapViduQuery({ id: '1', state: 'failed', err_code: code, credits: 0 })).toMatchObject({ state: 'failed', failReason: reason });
  });

  it('a task the client cancelled reads as cancelled upstream', () => {
    expect(mapViduQuery(bytes('{"id":"1","state":"failed","err_code":"UserCancelled"}'))).toMatchObject({
      state: 'failed',
      cancelledUpstream: true,
    });
  });

  it.each([
    [400, 'AuditSubmitIllegal', 'moderation'],
    [400, 'CreditInsufficient', 'channel'],
    [400, 'ModelUnavailable', 'channel'],
    [401, 'Unauthorized', 'channel'],
    [429, 'QuotaExceeded', 'backpressure'],
    [400, 'OperationInProcess', 'backpressure'],
    [404, 'TaskNotFound', 'channel'],
    [400, 'FieldInvalid', 'invalid_input'],
    [400, 'BadRequest', 'invalid_input'],
    [500, 'InternalServiceFailure', 'transient'],
  ])('maps HTTP %i %s to %s, naming only the code', (status, reason, kind) => {
    const error = mapViduError(status, { code: status, reason, message: 'at http://10.0.0.9 key vda_secret' }, undefined, 0);
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(reason);
    expect(error.message).not.toMatch(/10\.0\.0\.9|vda_secret/);
  });

  it('a 429 without a usable Retry-After waits 10 s; one with it waits as told', () => {
    expect(mapViduError(429, { reason: 'TooManyRequests' }, undefined, 0).details.retryAfterSeconds).toBe(10);
    expect(mapViduError(429, { reason: 'TooManyRequests' }, '3', 0).details.retryAfterSeconds).toBe(3);
  });
});
