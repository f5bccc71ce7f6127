import type { CatalogEntry } from '../../catalog/catalog-entry';
import { RUNWAY_BUILTIN_ENTRIES } from './runway-catalog';
import { planRunwayRequest, runwayModelOf } from './runway-request-rules';
import type { RunwayVideoRequestDto } from './runway-request.dto';
import { checkRunwayRouteOptions } from './runway-route-options';

/** A builtin model's catalog entry, as the submit pipeline hands it over. */
const entryOf = (model: string): CatalogEntry => ({
  ...RUNWAY_BUILTIN_ENTRIES.find((candidate) => candidate.id === model)!,
  source: 'builtin',
  modified: false,
});
const plan = (model: string, body: Partial<RunwayVideoRequestDto>, entry = entryOf(model)) =>
  planRunwayRequest(model, runwayModelOf({ entry, route: entry.routes[0] }), { model, ...body }, {});
const refusal = (model: string, body: Partial<RunwayVideoRequestDto>, entry = entryOf(model)) => {
  try {
    plan(model, body, entry);
  } catch (error) {
    return { param: (error as { options?: { param?: string } }).options?.param, message: (error as Error).message };
  }
  throw new Error('not refused');
};

describe('Runway request rules', () => {
  it("defaults: 16:9 720p, the model's default duration; veo models priced with audio unless metadata.audio is false", () => {
    expect(plan('gen4.5', { prompt: 'p' })).toEqual({
      request: { mode: 'text', promptText: 'p', ratio: '1280:720', duration: 5, extra: {} },
      frames: [],
      resolution: '720p',
      audio: false,
      mode: 'text-to-video',
    });
    expect(plan('veo3.1', { prompt: 'p', aspect_ratio: '9:16', resolution: '1080p' })).toMatchObject({
      request: { ratio: '1080:1920', duration: 8 },
      resolution: '1080p',
      audio: true,
    });
    expect(plan('veo3.1_fast', { prompt: 'p', metadata: { audio: false } })).toMatchObject({
      request: { extra: { audio: false } },
      audio: false,
    });
  });

  it('image-to-video: frames in order, gen4 image ratios from size', () => {
    expect(plan('gen4_turbo', { input_reference: 'https://x/a.png', size: '1584x672', duration: 10 })).toMatchObject({
      request: { mode: 'image', ratio: '1584:672', duration: 10 },
      frames: [{ position: 'first', field: 'input_reference', value: 'https://x/a.png' }],
    });
    expect(
      plan('veo3.1', { input_reference: 'https://x/a.png', last_frame: 'https://x/b.png' }).frames.map((frame) => frame.position),
    ).toEqual(['first', 'last']);
  });

  it.each([
    ['gen4_turbo', {}, 'input_reference', 'gen4_turbo is image-to-video only: input_reference (the first frame) is required'],
    ['gen4.5', { prompt: ' ' }, 'prompt', 'prompt is required for text-to-video'],
    ['gen4.5', { prompt: 'p', duration: 1 }, 'duration', 'duration must be a whole number of seconds from 2 to 10 for gen4.5'],
    ['gen4_turbo', { input_reference: 'u', duration: 7 }, 'duration', 'duration must be 5 or 10 seconds for gen4_turbo'],
    ['gen4.5', { prompt: 'p', size: '1104x832' }, 'size', 'size must be one of 1280x720, 720x1280 for gen4.5 text-to-video'],
    ['gen4.5', { prompt: 'p', size: '1280x720', aspect_ratio: '16:9' }, 'aspect_ratio', 'give size or aspect_ratio, not both'],
    ['gen4.5', { prompt: 'p', resolution: '4k' }, 'resolution', 'resolution must be 720p or 1080p'],
    ['gen4.5', { prompt: 'p', resolution: '1080p' }, 'resolution', 'resolution 1080p is not available for gen4.5 text-to-video at 16:9'],
    [
      'veo3.1',
      { prompt: 'p', aspect_ratio: '1:1' },
      'aspect_ratio',
      'aspect_ratio must be one of 16:9, 9:16 for veo3.1 text-to-video at 720p',
    ],
    ['veo3.1', { prompt: 'p', last_frame: 'u' }, 'last_frame', 'last_frame needs input_reference (the first frame)'],
    [
      'gen4.5',
      { prompt: 'p', negative_prompt: 'n' },
      'negative_prompt',
      'negative_prompt is not supported by gen4.5 (only veo3.1 and veo3.1_fast)',
    ],
    [
      'gen4.5',
      { prompt: 'p', metadata: { promptImage: 'u' } },
      'metadata.promptImage',
      'metadata.promptImage is set by the gateway: use input_reference',
    ],
    [
      'gen4.5',
      { prompt: 'p', metadata: { audio: true } },
      'metadata.audio',
      'metadata.audio is not supported by gen4.5 (only veo3.1 and veo3.1_fast)',
    ],
    ['veo3.1', { prompt: 'p', metadata: { audio: 'yes' } }, 'metadata.audio', 'metadata.audio must be a boolean'],
  ])('%s %j: 400 naming %s', (model, body, param, message) => {
    expect(refusal(model, body as Partial<RunwayVideoRequestDto>)).toEqual({ param, message });
  });

  it('lists the lengths of a model that takes a few', () => {
    expect(refusal('veo3.1', { prompt: 'p', duration: 5 })).toEqual({
      param: 'duration',
      message: 'duration must be 4, 6 or 8 seconds for veo3.1',
    });
  });
});

describe('Runway rules read the catalog entry', () => {
  /** A model an operator adds: gen5, 2 to 15 s, every 720p gen4 ratio for text-to-video too, prompts of 100. */
  const gen5: CatalogEntry = {
    ...entryOf('gen4.5'),
    id: 'gen5',
    durations: { min: 2, max: 15 },
    defaultDuration: 6,
    promptMaxLength: 100,
    routes: [{ platform: 'runway', upstreamModel: 'gen5' }],
  };

  it("takes a new model's lengths, default and ratios (aspect ratio and resolution as pixels) from its entry alone", () => {
    expect(plan('gen5', { prompt: 'p' }, gen5)).toMatchObject({ request: { ratio: '1280:720', duration: 6 }, mode: 'text-to-video' });
    expect(plan('gen5', { prompt: 'p', duration: 15, aspect_ratio: '1:1' }, gen5).request).toMatchObject({
      ratio: '960:960',
      duration: 15,
    });
    expect(plan('gen5', { prompt: 'p', size: '1584x672' }, gen5).request.ratio).toBe('1584:672');
    expect(refusal('gen5', { prompt: 'p', duration: 16 }, gen5)).toEqual({
      param: 'duration',
      message: 'duration must be a whole number of seconds from 2 to 15 for gen5',
    });
    const square = { ...gen5, aspectRatios: ['1:1'] };
    expect(plan('gen5', { prompt: 'p' }, square).request.ratio).toBe('960:960');
    expect(refusal('gen5', { prompt: 'p', aspect_ratio: '16:9' }, square)).toEqual({
      param: 'aspect_ratio',
      message: 'aspect_ratio must be one of 1:1 for gen5 text-to-video at 720p',
    });
    const wide = { ...gen5, resolutions: ['1080p', '720p'], aspectRatios: ['16:9', '9:16'] };
    expect(plan('gen5', { prompt: 'p' }, wide)).toMatchObject({ request: { ratio: '1920:1080' }, resolution: '1080p' });
    expect(refusal('gen5', { prompt: 'p', resolution: '1080p' }, gen5).param).toBe('resolution');
    expect(refusal('gen5', { prompt: 'p'.repeat(101) }, gen5)).toEqual({
      param: 'prompt',
      message: 'prompt must be at most 100 characters for gen5',
    });
  });

  it('reads its modes from the entry, and the Veo dialect from the route (option veo, else an upstream id veo...)', () => {
    const imageOnly = { ...gen5, modes: ['image-to-video' as const] };
    expect(refusal('gen5', { prompt: 'p' }, imageOnly).param).toBe('input_reference');
    expect(refusal('gen5', { prompt: 'p', negative_prompt: 'n' }, gen5).param).toBe('negative_prompt');
    const veo3: CatalogEntry = {
      ...entryOf('veo3.1'),
      id: 'veo3',
      durations: [8],
      defaultDuration: 8,
      modes: ['text-to-video', 'image-to-video'],
      audio: 'always',
      routes: [{ platform: 'runway', upstreamModel: 'veo3' }],
    };
    expect(plan('veo3', { prompt: 'p', negative_prompt: 'n' }, veo3)).toMatchObject({ request: { negativePrompt: 'n' }, audio: true });
    expect(refusal('veo3', { prompt: 'p', metadata: { audio: false } }, veo3)).toEqual({
      param: 'metadata.audio',
      message: 'metadata.audio cannot be false: veo3 always generates audio',
    });
    expect(refusal('veo3', { input_reference: 'https://x/a.png', last_frame: 'https://x/b.png' }, veo3)).toEqual({
      param: 'last_frame',
      message: 'last_frame is not taken by veo3',
    });
    const silent = { ...veo3, audio: 'none' as const };
    expect(plan('veo3', { prompt: 'p' }, silent)).toMatchObject({ request: { extra: { audio: false } }, audio: false });
    expect(refusal('veo3', { prompt: 'p', metadata: { audio: true } }, silent).param).toBe('metadata.audio');
    const notVeo = { ...veo3, routes: [{ platform: 'runway' as const, upstreamModel: 'veo3', options: { veo: false } }] };
    expect(refusal('veo3', { prompt: 'p', negative_prompt: 'n' }, notVeo).param).toBe('negative_prompt');
  });

  it('checks its route options: veo a boolean, text_aspect_ratios aspect ratios Runway makes, nothing else', () => {
    expect(checkRunwayRouteOptions({ veo: true, text_aspect_ratios: ['16:9', '9:16'] })).toBeNull();
    expect(checkRunwayRouteOptions({ veo: 'yes' })).toMatchObject({ field: 'veo' });
    expect(checkRunwayRouteOptions({ text_aspect_ratios: ['5:4'] })).toMatchObject({ field: 'text_aspect_ratios' });
    expect(checkRunwayRouteOptions({ text_aspect_ratios: [] })).toMatchObject({ field: 'text_aspect_ratios' });
    expect(checkRunwayRouteOptions({ turbo: true })).toMatchObject({ field: 'turbo' });
    expect(entryOf('veo3.1').routes[0].options).toEqual({ veo: true });
    expect(entryOf('gen4.5').routes[0].options).toEqual({ text_aspect_ratios: ['16:9', '9:16'] });
    expect(entryOf('gen4_turbo').routes[0].options).toBeUndefined();
  });
});
