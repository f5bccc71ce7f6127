import type { CatalogEntry } from '../../catalog/catalog-entry';
import { ALPHA_BUILTIN_ENTRIES } from './alpha-catalog';
import type { CreateVideoDto } from './alpha-request.dto';
import { AlphaImageField, alphaModelOf, checkAlphaRouteOptions, settleAlphaRequest } from './alpha-task-rules';
import { builtinCatalogModel, refusalOf } from '../shared/family.spec-support';

/** A builtin model's catalog entry and its family A route, as the submit pipeline hands them over. */
const catalogModelOf = (model: string) => builtinCatalogModel(ALPHA_BUILTIN_ENTRIES, model);
const settle = (model: string, body: Partial<CreateVideoDto>, image: AlphaImageField | null = null) =>
  settleAlphaRequest(model, alphaModelOf(catalogModelOf(model)), { model, ...body }, image);

describe('family A rules (builtin entries)', () => {
  it('carries fast motion and the lengths refused at 1080p as route options', () => {
    expect(catalogModelOf('alpha/v3.5').route.options).toEqual({ fast_motion: true, no_1080p_durations: [8] });
    expect(catalogModelOf('alpha/v5.5').route.options).toEqual({ no_1080p_durations: [10] });
    expect(catalogModelOf('alpha/v6').route.options).toBeUndefined();
  });

  it('settles defaults as before: 5 s, 720p, no ratio sent unless asked or implied by a pixel size', () => {
    expect(settle('alpha/v6', { prompt: 'p' })).toEqual({ mode: 'text', duration: 5, quality: '720p', fastMotion: false, audio: false });
    expect(settle('alpha/v5', { prompt: 'p', size: '720x1280' })).toMatchObject({ quality: '720p', aspectRatio: '9:16' });
    expect(settle('alpha/v4', { prompt: 'p', size: '960x540', metadata: { motion_mode: 'fast' } })).toMatchObject({
      quality: '540p',
      fastMotion: true,
    });
    expect(settle('alpha/v6', {}, 'metadata.img_id')).toEqual({
      mode: 'image',
      duration: 5,
      quality: '720p',
      fastMotion: false,
      audio: false,
    });
  });

  it.each([
    [
      'alpha/v5',
      { prompt: 'p', metadata: { generate_audio_switch: true } },
      'metadata.generate_audio_switch: model v5 does not support audio generation',
    ],
    ['alpha/v6', { prompt: 'p', metadata: { motion_mode: 'fast' } }, 'metadata.motion_mode: model v6 does not support fast motion'],
    [
      'alpha/v4.5',
      { prompt: 'p', duration: 8, metadata: { motion_mode: 'fast' } },
      'metadata.motion_mode: fast motion only supports 360p/540p/720p at 5s',
    ],
    ['alpha/v5.6', { prompt: 'p', duration: 10, resolution: '1080P' }, 'duration: combination 1080p / 10 not supported'],
    ['alpha/v3.5', { prompt: 'p', duration: 8, size: '1920x1080' }, 'duration: combination 1080p / 8 not supported'],
    ['alpha/v5', { prompt: 'p', duration: 10 }, 'duration: duration must be 5 or 8 seconds for alpha/v5'],
    ['alpha/v6', { prompt: 'p', duration: 16 }, 'duration: duration must be a whole number of seconds from 1 to 15 for alpha/v6'],
    [
      'alpha/v5',
      { prompt: 'p', metadata: { aspect_ratio: '21:9' } },
      'metadata.aspect_ratio: model v5 does not support aspect_ratio 21:9 (allowed: 16:9, 4:3, 1:1, 3:4, 9:16)',
    ],
    ['alpha/v6', { prompt: ' ' }, 'prompt: prompt is required'],
  ])('%s %j is refused: %s', (model, body, expected) => {
    expect(refusalOf(() => settle(model, body as Partial<CreateVideoDto>))).toBe(expected);
  });
});

describe('family A rules read the catalog entry', () => {
  const v7 = (changes: Partial<CatalogEntry>, options?: Record<string, unknown>) => {
    const { entry, route } = catalogModelOf('alpha/v6');
    return alphaModelOf({
      entry: { ...entry, id: 'alpha/v7', source: 'custom', ...changes },
      route: { ...route, upstreamModel: 'v7', ...(options ? { options } : {}) },
    });
  };
  const settleV7 = (model: ReturnType<typeof v7>, body: Partial<CreateVideoDto>, image: AlphaImageField | null = null) =>
    settleAlphaRequest('alpha/v7', model, { model: 'alpha/v7', ...body }, image);

  it("takes a new model's lengths, default, quality and ratio from its entry alone (alpha/v7: 1 to 20 s, 1080p, 9:16 first)", () => {
    const model = v7({
      durations: { min: 1, max: 20 },
      defaultDuration: 6,
      resolutions: ['1080p', '720p'],
      aspectRatios: ['9:16', '16:9'],
    });
    expect(settleV7(model, { prompt: 'p' })).toEqual({
      mode: 'text',
      duration: 6,
      quality: '1080p',
      aspectRatio: '9:16',
      fastMotion: false,
      audio: false,
    });
    expect(settleV7(model, { prompt: 'p', duration: 18 })).toMatchObject({ duration: 18 });
    expect(refusalOf(() => settleV7(model, { prompt: 'p', duration: 21 }))).toBe(
      'duration: duration must be a whole number of seconds from 1 to 20 for alpha/v7',
    );
    expect(refusalOf(() => settleV7(model, { prompt: 'p', resolution: '540P' }))).toBe(
      'resolution: resolution: alpha/v7 renders 1080p, 720p only',
    );
    expect(refusalOf(() => settleV7(model, { prompt: 'p', metadata: { quality: '360p' } }))).toBe(
      'metadata.quality: metadata.quality: alpha/v7 renders 1080p, 720p only',
    );
    expect(refusalOf(() => settleV7(model, { prompt: 'p', metadata: { aspect_ratio: '1:1' } }))).toBe(
      'metadata.aspect_ratio: model v7 does not support aspect_ratio 1:1 (allowed: 9:16, 16:9)',
    );
  });

  it('takes audio, modes and the prompt length from the entry', () => {
    const always = v7({ audio: 'always' });
    expect(settleV7(always, { prompt: 'p' })).toMatchObject({ audio: true });
    expect(refusalOf(() => settleV7(always, { prompt: 'p', metadata: { generate_audio_switch: false } }))).toBe(
      'metadata.generate_audio_switch: model v7 always generates audio',
    );
    expect(refusalOf(() => settleV7(v7({ audio: 'none' }), { prompt: 'p', metadata: { generate_audio_switch: true } }))).toBe(
      'metadata.generate_audio_switch: model v7 does not support audio generation',
    );
    expect(refusalOf(() => settleV7(v7({ modes: ['image-to-video'] }), { prompt: 'p' }))).toBe(
      'image: alpha/v7 is image-to-video only: image is required',
    );
    expect(refusalOf(() => settleV7(v7({ modes: ['text-to-video'] }), { prompt: 'p' }, 'images'))).toBe(
      'images: alpha/v7 is text-to-video only: it takes no image',
    );
    expect(refusalOf(() => settleV7(v7({ promptMaxLength: 10 }), { prompt: 'x'.repeat(11) }))).toBe(
      'prompt: prompt must be at most 10 characters',
    );
  });

  it('reads fast motion and the lengths refused at 1080p from the route options', () => {
    const fast = v7({ durations: [5, 10] }, { fast_motion: true, no_1080p_durations: [10] });
    expect(settleV7(fast, { prompt: 'p', metadata: { motion_mode: 'fast' } })).toMatchObject({ fastMotion: true });
    expect(refusalOf(() => settleV7(fast, { prompt: 'p', duration: 10, resolution: '1080p' }))).toBe(
      'duration: combination 1080p / 10 not supported',
    );
    expect(refusalOf(() => settleV7(v7({}), { prompt: 'p', metadata: { motion_mode: 'fast' } }))).toBe(
      'metadata.motion_mode: model v7 does not support fast motion',
    );
  });

  it('checks its route options', () => {
    expect(checkAlphaRouteOptions({ fast_motion: true, no_1080p_durations: [10] })).toBeNull();
    expect(checkAlphaRouteOptions({ fast_motion: 'yes' })).toEqual({ field: 'fast_motion', message: 'fast_motion must be true or false' });
    expect(checkAlphaRouteOptions({ no_1080p_durations: [10.5] })?.field).toBe('no_1080p_durations');
    expect(checkAlphaRouteOptions({ turbo: true })).toEqual({
      field: 'turbo',
      message: 'turbo is not a family A route option (fast_motion and no_1080p_durations are)',
    });
  });
});
