import type { CatalogEntry } from '../../catalog/catalog-entry';
import { builtinEntry, refusedField } from '../shared/family.spec-support';
import { SEEDANCE_BUILTIN_ENTRIES } from './seedance-catalog';
import { mapSeedanceError } from './seedance-errors';
import { arkModelId, arkPath, buildSeedanceBody, seedanceTaskIdOf } from './seedance-protocol';
import { mapSeedanceQuery } from './seedance-query-mapping';
import type { SeedanceVideoRequestDto } from './seedance-request.dto';
import { settleSeedanceRequest } from './seedance-task-rules';

const settle = (model: string, body: Partial<SeedanceVideoRequestDto>, hasFirstFrame = false, changes: Partial<CatalogEntry> = {}) =>
  settleSeedanceRequest(model, builtinEntry(SEEDANCE_BUILTIN_ENTRIES, model, changes), { model, ...body }, hasFirstFrame);

describe('Seedance request rules, read from the catalog entry', () => {
  it('text-to-video: 5 s at 720p 16:9 with audio by default; size sets resolution and ratio; references are their own mode', () => {
    expect(settle('seedance-2-0', { prompt: 'p' })).toEqual({
      mode: 'text-to-video',
      duration: 5,
      resolution: '720p',
      ratio: '16:9',
      generateAudio: true,
      extra: {},
    });
    expect(settle('seedance-1-5-pro', { prompt: 'p', size: '1080x1920', duration: 12, audio: false })).toMatchObject({
      resolution: '1080p',
      ratio: '9:16',
      generateAudio: false,
    });
    expect(settle('seedance-2-0-fast', { prompt: 'p', reference_images: ['https://x/a.png'], aspect_ratio: '21:9' })).toMatchObject({
      mode: 'reference-to-video',
      ratio: '21:9',
    });
  });

  it('frames send ratio adaptive (the video follows the image); last_frame is first-last-frame', () => {
    expect(settle('seedance-2-0', {}, true)).toMatchObject({ mode: 'image-to-video', ratio: 'adaptive' });
    expect(settle('seedance-2-0', { last_frame: 'https://x/e.png', aspect_ratio: 'adaptive' }, true)).toMatchObject({
      mode: 'first-last-frame',
      ratio: 'adaptive',
    });
  });

  it.each([
    ['frames and references mixed', 'seedance-2-0', { reference_images: ['https://x/a.png'] }, true, 'reference_images'],
    [
      'last_frame and references mixed',
      'seedance-2-0',
      { prompt: 'p', last_frame: 'https://x/e.png', reference_images: ['https://x/a.png'] },
      false,
      'reference_images',
    ],
    ['references on 1.5 pro', 'seedance-1-5-pro', { prompt: 'p', reference_images: ['https://x/a.png'] }, false, 'reference_images'],
    ['an empty reference list', 'seedance-2-0', { prompt: 'p', reference_images: [] }, false, 'reference_images'],
    ['last_frame alone', 'seedance-2-0', { prompt: 'p', last_frame: 'https://x/e.png' }, false, 'last_frame'],
    ['no prompt for text-to-video', 'seedance-2-0', {}, false, 'prompt'],
    ['no prompt with references', 'seedance-2-0', { reference_images: ['https://x/a.png'] }, false, 'prompt'],
    ['16 s on 2.0', 'seedance-2-0', { prompt: 'p', duration: 16 }, false, 'duration'],
    ['3 s on 2.0 fast', 'seedance-2-0-fast', { prompt: 'p', duration: 3 }, false, 'duration'],
    ['13 s on 1.5 pro', 'seedance-1-5-pro', { prompt: 'p', duration: 13 }, false, 'duration'],
    ['1080p on 2.0', 'seedance-2-0', { prompt: 'p', resolution: '1080p' }, false, 'resolution'],
    ['a ratio Ark lacks', 'seedance-2-0', { prompt: 'p', aspect_ratio: '2:1' }, false, 'aspect_ratio'],
    ['an explicit ratio with a frame', 'seedance-2-0', { aspect_ratio: '16:9' }, true, 'aspect_ratio'],
    ['a size of another shape', 'seedance-2-0', { prompt: 'p', size: '1000x720' }, false, 'size'],
    ['negative_prompt', 'seedance-2-0', { prompt: 'p', negative_prompt: 'blur' }, false, 'negative_prompt'],
    ['metadata.callback_url', 'seedance-2-0', { prompt: 'p', metadata: { callback_url: 'https://x' } }, false, 'metadata.callback_url'],
    ['metadata.service_tier', 'seedance-2-0', { prompt: 'p', metadata: { service_tier: 'flex' } }, false, 'metadata.service_tier'],
    ['metadata.draft', 'seedance-1-5-pro', { prompt: 'p', metadata: { draft: true } }, false, 'metadata.draft'],
  ])('refuses %s, naming the field', (_name, model, body, hasFirstFrame, field) => {
    expect(refusedField(() => settle(model, body as Partial<SeedanceVideoRequestDto>, hasFirstFrame))).toBe(field);
  });

  it("takes the entry's word: an operator's limit of 2 references, or an entry with audio none", () => {
    const refs = ['https://x/a.png', 'https://x/b.png', 'https://x/c.png'];
    expect(refusedField(() => settle('seedance-2-0', { prompt: 'p', reference_images: refs }, false, { maxReferenceImages: 2 }))).toBe(
      'reference_images',
    );
    expect(settle('seedance-2-0', { prompt: 'p' }, false, { audio: 'none' })).toMatchObject({ generateAudio: false });
    expect(refusedField(() => settle('seedance-2-0', { prompt: 'p', audio: true }, false, { audio: 'none' }))).toBe('audio');
  });
});

describe("Ark's wire", () => {
  it('builds content with the text first, then the images in order with their roles; metadata first, fields win', () => {
    const body = buildSeedanceBody(
      {
        prompt: 'a cat',
        duration: 5,
        resolution: '720p',
        ratio: 'adaptive',
        generateAudio: true,
        seed: 7,
        extra: { watermark: false },
        images: [
          { role: 'first_frame', image: { url: 'https://x/f.png' } },
          { role: 'last_frame', image: { url: 'https://x/l.png' } },
        ],
      },
      'dreamina-seedance-2-0-260128',
      ['https://x/f.png', 'data:image/png;base64,AAAA'],
    );
    expect(body).toEqual({
      watermark: false,
      model: 'dreamina-seedance-2-0-260128',
      content: [
        { type: 'text', text: 'a cat' },
        { type: 'image_url', image_url: { url: 'https://x/f.png' }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' }, role: 'last_frame' },
      ],
      duration: 5,
      resolution: '720p',
      ratio: 'adaptive',
      generate_audio: true,
      seed: 7,
    });
    expect(seedanceTaskIdOf({ id: 'cgt-20250918165813-8tz7p' })).toBe('cgt-20250918165813-8tz7p');
    expect(seedanceTaskIdOf({ id: 'a b' })).toBeUndefined();
  });

  it.each([
    ['dreamina-seedance-2-0-260128', 'https://ark.cn-beijing.volces.com', 'doubao-seedance-2-0-260128'],
    ['seedance-1-5-pro-251215', 'https://ark.cn-beijing.volces.com/api/v3', 'doubao-seedance-1-5-pro-251215'],
    ['doubao-seedance-2-0-fast-260128', 'https://ark.ap-southeast.bytepluses.com', 'dreamina-seedance-2-0-fast-260128'],
    ['doubao-seedance-1-5-pro-251215', 'https://ark.ap-southeast.bytepluses.com', 'seedance-1-5-pro-251215'],
    ['ep-20250101-abcde', 'https://ark.cn-beijing.volces.com', 'ep-20250101-abcde'],
    ['dreamina-seedance-2-0-260128', 'http://127.0.0.1:4000', 'dreamina-seedance-2-0-260128'],
  ])('sends %s on %s as %s', (model, base, sent) => {
    expect(arkModelId(model, base)).toBe(sent);
  });

  it('takes a base URL with or without /api/v3', () => {
    expect(arkPath('https://ark.ap-southeast.bytepluses.com', '/api/v3/contents/generations/tasks')).toBe(
      '/api/v3/contents/generations/tasks',
    );
    expect(arkPath('https://ark.cn-beijing.volces.com/api/v3', '/api/v3/contents/generations/tasks/x')).toBe(
      '/contents/generations/tasks/x',
    );
  });
});

describe('a query of Ark, as the gateway reads it', () => {
  const usage = { completion_tokens: 108900, total_tokens: 108900 };
  it.each([
    ['queued', { status: 'queued' }, { state: 'queued', progress: 0 }],
    ['running', { status: 'running' }, { state: 'running' }],
    [
      'succeeded, with its tokens',
      { status: 'succeeded', content: { video_url: 'https://ark-content.example.com/v.mp4' }, usage },
      { state: 'succeeded', videoUrl: 'https://ark-content.example.com/v.mp4', providerUsage: { unit: 'tokens', amount: 108900 } },
    ],
    [
      'succeeded without a link',
      { status: 'succeeded', content: {} },
      { state: 'failed', failReason: 'generation failed: the provider gave no usable video link' },
    ],
    [
      'failed by output moderation',
      { status: 'failed', error: { code: 'OutputVideoSensitiveContentDetected', message: 'at http://10.0.0.1' } },
      { state: 'failed', failReason: 'content moderation failed: OutputVideoSensitiveContentDetected' },
    ],
    [
      'failed inside Ark',
      { status: 'failed', error: { code: 'InternalServiceError', message: 'x' } },
      { state: 'failed', failReason: 'generation failed: InternalServiceError: provider internal error' },
    ],
    [
      'expired: an end, never still running',
      { status: 'expired' },
      { state: 'failed', failReason: 'upstream timeout: the provider expired the task' },
    ],
    [
      'cancelled: an end, never still running',
      { status: 'cancelled' },
      { state: 'failed', failReason: 'generation failed: the task was cancelled upstream', cancelledUpstream: true },
    ],
  ])('%s', (_name, answer, outcome) => {
    const mapped = mapSeedanceQuery({ id: 'cgt-1', model: 'm', ...answer });
    expect(mapped).toMatchObject(outcome);
    expect(JSON.stringify(mapped.raw)).not.toMatch(/10\.0\.0\.1|https?:|108900/);
  });

  it('an unknown status is transient (asked again), never an end', () => {
    expect(() => mapSeedanceQuery({ status: 'paused' })).toThrow(expect.objectContaining({ kind: 'transient' }));
  });
});

describe("Ark's errors, as the gateway reads them", () => {
  const error = (status: number, code: string, retryAfter?: string) =>
    mapSeedanceError(status, { error: { code, message: 'secret words at http://10.0.0.9', type: 'BadRequest' } }, retryAfter, 0);
  it.each([
    [400, 'InvalidParameter', 'invalid_input', 'InvalidParameter: a field is invalid'],
    [400, 'InputTextSensitiveContentDetected', 'moderation', 'content moderation failed: InputTextSensitiveContentDetected'],
    [400, 'SensitiveContentDetected.SevereViolation', 'moderation', 'content moderation failed: SensitiveContentDetected.SevereViolation'],
    [400, 'InputImageRiskDetection', 'moderation', 'content moderation failed: InputImageRiskDetection'],
    [401, 'AuthenticationError', 'channel', 'AuthenticationError: authentication failed'],
    [403, 'AccountOverdueError', 'channel', 'AccountOverdueError: the provider account is in arrears'],
    [404, 'ModelNotOpen', 'channel', 'ModelNotOpen: the model is not activated for the provider account'],
    [429, 'RateLimitExceeded.EndpointRPMExceeded', 'backpressure', 'RateLimitExceeded.EndpointRPMExceeded: rate limit exceeded'],
    [500, 'InternalServiceError', 'transient', 'InternalServiceError: provider internal error'],
  ])('HTTP %s %s -> %s', (status, code, kind, message) => {
    const mapped = error(status, code, '3');
    expect(mapped).toMatchObject({ kind, message });
    expect(mapped.message).not.toContain('10.0.0.9');
  });
});
