import type { CatalogEntry } from '../../catalog/catalog-entry';
import { VEO_BUILTIN_ENTRIES } from './veo-catalog';
import { planVeoRequest, veoModelOf } from './veo-request-rules';
import type { VeoVideoRequestDto } from './veo-request.dto';

/** A builtin model's catalog entry, as the submit pipeline hands it over. */
const entryOf = (model: string): CatalogEntry => ({
  ...VEO_BUILTIN_ENTRIES.find((candidate) => candidate.id === model)!,
  source: 'builtin',
  modified: false,
});
const plan = (
  model: string,
  body: Partial<VeoVideoRequestDto>,
  options: { seedSent?: boolean; file?: boolean } = {},
  entry: CatalogEntry = entryOf(model),
) =>
  planVeoRequest(
    model,
    veoModelOf({ entry }),
    { model, ...body },
    {
      seedSent: options.seedSent ?? false,
      inputReferenceFile: options.file ? { buffer: Buffer.from('x') } : undefined,
    },
  );
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { param: (error as { options?: { param?: string } }).options?.param, message: (error as Error).message };
  }
  throw new Error('not refused');
};

describe('Veo request rules', () => {
  it('defaults to 8 s, 16:9, 720p and maps a pixel size to ratio and resolution', () => {
    expect(plan('veo-3.1-generate-preview', { prompt: 'p' }).request).toEqual({
      prompt: 'p',
      durationSeconds: 8,
      aspectRatio: '16:9',
      resolution: '720p',
    });
    expect(plan('veo-3.1-generate-preview', { prompt: 'p', size: '2160x3840' }).request).toMatchObject({
      aspectRatio: '9:16',
      resolution: '4k',
    });
    expect(
      plan('veo-3.0-generate-001', {
        prompt: 'p',
        duration: 4,
        aspect_ratio: '9:16',
        negative_prompt: 'blur',
        metadata: { personGeneration: 'allow_adult' },
      }).request,
    ).toEqual({
      prompt: 'p',
      durationSeconds: 4,
      aspectRatio: '9:16',
      resolution: '720p',
      negativePrompt: 'blur',
      extraParameters: { personGeneration: 'allow_adult' },
    });
  });

  it('takes the first frame as a file, a URL, {image_url} or a data URI, and the last frame on Veo 3.1', () => {
    expect(plan('veo-3.0-generate-001', {}, { file: true }).image).toEqual({ file: { buffer: Buffer.from('x') } });
    expect(plan('veo-3.0-generate-001', { input_reference: { image_url: 'https://a.example/i.png' } }).image).toEqual({
      url: 'https://a.example/i.png',
    });
    const both = plan('veo-3.1-fast-generate-preview', {
      input_reference: 'https://a.example/i.png',
      last_frame: 'data:image/png;base64,AAAA',
    });
    expect(both).toMatchObject({ image: { url: 'https://a.example/i.png' }, lastFrame: { dataUri: 'data:image/png;base64,AAAA' } });
  });

  it.each([
    ['veo-3.1-generate-preview', { prompt: 'p', duration: 5 }, {}, 'duration'],
    ['veo-3.0-fast-generate-001', { prompt: 'p', resolution: '4k' }, {}, 'resolution'],
    ['veo-3.1-generate-preview', { prompt: 'p', resolution: '1080p', duration: 6 }, {}, 'duration'],
    ['veo-3.1-generate-preview', { prompt: 'p', size: '3840x2160', duration: 4 }, {}, 'duration'],
    ['veo-3.1-generate-preview', { prompt: 'p', size: '1280x720', aspect_ratio: '16:9' }, {}, 'size'],
    ['veo-3.1-generate-preview', { prompt: 'p', size: '640x480' }, {}, 'size'],
    ['veo-3.1-generate-preview', {}, {}, 'prompt'],
    ['veo-3.1-generate-preview', { prompt: '   ' }, {}, 'prompt'],
    ['veo-3.0-generate-001', { input_reference: 'https://a.example/i.png', last_frame: 'https://a.example/l.png' }, {}, 'last_frame'],
    ['veo-3.1-generate-preview', { prompt: 'p', last_frame: 'https://a.example/l.png' }, {}, 'last_frame'],
    ['veo-3.1-generate-preview', { prompt: 'p' }, { seedSent: true }, 'seed'],
    ['veo-3.1-generate-preview', { prompt: 'p', metadata: { sampleCount: 2 } }, {}, 'metadata.sampleCount'],
    ['veo-3.1-generate-preview', { prompt: 'p', input_reference: 'https://a.example/i.png' }, { file: true }, 'input_reference'],
    ['veo-3.1-generate-preview', { prompt: 'p', aspect_ratio: '1:1' }, {}, 'aspect_ratio'],
  ])('%s %j is refused naming the field', (model, body, options, param) => {
    expect(refusal(() => plan(model, body as Partial<VeoVideoRequestDto>, options)).param).toBe(param);
  });

  it('sets the mode it makes: text-to-video, image-to-video, first and last frames', () => {
    expect(plan('veo-3.1-generate-preview', { prompt: 'p' }).mode).toBe('text-to-video');
    expect(plan('veo-3.0-generate-001', {}, { file: true }).mode).toBe('image-to-video');
    expect(
      plan('veo-3.1-generate-preview', { input_reference: 'https://a.example/i.png', last_frame: 'https://a.example/l.png' }).mode,
    ).toBe('first-last-frame');
  });
});

describe('Veo rules read the catalog entry', () => {
  /** A model an operator adds: veo-3.2 with 4 to 12 s, 9:16 first, 720p and 1080p, no last frame, prompts of 100. */
  const v32: CatalogEntry = {
    ...entryOf('veo-3.0-generate-001'),
    id: 'veo-3.2-generate-preview',
    durations: { min: 4, max: 12 },
    defaultDuration: 10,
    resolutions: ['720p', '1080p'],
    aspectRatios: ['9:16', '16:9'],
    promptMaxLength: 100,
    routes: [{ platform: 'veo', upstreamModel: 'veo-3.2-generate-preview' }],
  };
  const planV32 = (body: Partial<VeoVideoRequestDto>, options: { file?: boolean } = {}, entry = v32) =>
    plan('veo-3.2-generate-preview', body, options, entry);

  it("takes a new model's lengths, default, aspect ratios and resolutions from its entry alone", () => {
    expect(planV32({ prompt: 'p' }).request).toEqual({ prompt: 'p', durationSeconds: 10, aspectRatio: '9:16', resolution: '720p' });
    expect(planV32({ prompt: 'p', duration: 11, aspect_ratio: '16:9' }).request).toMatchObject({
      durationSeconds: 11,
      aspectRatio: '16:9',
    });
    expect(refusal(() => planV32({ prompt: 'p', duration: 13 }))).toEqual({
      param: 'duration',
      message: 'duration must be a whole number of seconds from 4 to 12 for veo-3.2-generate-preview',
    });
    expect(refusal(() => planV32({ prompt: 'p', resolution: '4k', duration: 8 }))).toEqual({
      param: 'resolution',
      message: 'resolution must be 720p, 1080p for veo-3.2-generate-preview',
    });
    expect(refusal(() => planV32({ prompt: 'p', size: '3840x2160', duration: 8 })).param).toBe('size');
    const wideOnly = { ...v32, aspectRatios: ['16:9'] };
    expect(refusal(() => planV32({ prompt: 'p', aspect_ratio: '9:16' }, {}, wideOnly))).toEqual({
      param: 'aspect_ratio',
      message: 'aspect_ratio must be one of 16:9',
    });
    expect(refusal(() => planV32({ prompt: 'p', size: '720x1280' }, {}, wideOnly)).param).toBe('size');
  });

  it("keeps Veo's protocol (1080p at 8 s only) and reads the modes and prompt length of the entry", () => {
    expect(refusal(() => planV32({ prompt: 'p', resolution: '1080p', duration: 10 })).param).toBe('duration');
    expect(planV32({ prompt: 'p', resolution: '1080p', duration: 8 }).request).toMatchObject({ resolution: '1080p' });
    expect(refusal(() => planV32({ prompt: 'p'.repeat(101) }))).toEqual({
      param: 'prompt',
      message: 'prompt must be at most 100 characters for veo-3.2-generate-preview',
    });
    expect(refusal(() => planV32({ input_reference: 'https://a.example/i.png', last_frame: 'https://a.example/l.png' })).param).toBe(
      'last_frame',
    );
    const withLastFrame = { ...v32, modes: [...v32.modes, 'first-last-frame' as const] };
    expect(planV32({ input_reference: 'https://a.example/i.png', last_frame: 'https://a.example/l.png' }, {}, withLastFrame).mode).toBe(
      'first-last-frame',
    );
    const imageOnly = { ...v32, modes: ['image-to-video' as const] };
    expect(refusal(() => planV32({ prompt: 'p' }, {}, imageOnly))).toEqual({
      param: 'input_reference',
      message: 'veo-3.2-generate-preview is image-to-video only: input_reference is required',
    });
    expect(planV32({ prompt: 'p' }, { file: true }, imageOnly).mode).toBe('image-to-video');
  });
});
