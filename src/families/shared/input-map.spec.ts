import type { CatalogEntry, CatalogRoute } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import { settleHostedRequest } from './hosted-request-rules';
import { checkHostedRouteOptions, hostedRouteOf } from './hosted-route';
import type { HostedVideoRequestDto } from './hosted-video-request.dto';
import { checkInputMap, firstUnmapped, inputMapOf, mapInput } from './input-map';
import { outputPathProblem, videoUrlAt } from './output-path';

const KLING_MAP = {
  prompt: 'prompt',
  first_frame: 'image_url',
  last_frame: 'tail_image_url',
  seconds: { field: 'duration', as: 'string' },
  aspect_ratio: 'aspect_ratio',
  resolution: 'resolution',
  audio: 'generate_audio',
  negative_prompt: 'negative_prompt',
  seed: 'seed',
};

describe('input_map: the route option mapping gateway fields onto an endpoint input', () => {
  it('accepts the contract example and refuses, naming the option, what no endpoint could take', () => {
    expect(checkInputMap(KLING_MAP)).toBeNull();
    expect(
      checkInputMap({ seconds: { field: 'duration', as: 'seconds' }, resolution: { field: 'resolution', values: { '768p': '768P' } } }),
    ).toBeNull();
    const refused = (value: unknown) => checkInputMap(value);
    expect(refused(undefined)).toMatchObject({ field: 'input_map' });
    expect(refused({})).toMatchObject({ field: 'input_map' });
    expect(refused(['prompt'])).toMatchObject({ field: 'input_map' });
    expect(refused({ size: 'size' })).toEqual({
      field: 'input_map.size',
      message:
        'input_map.size is not a gateway field (prompt, first_frame, last_frame, seconds, aspect_ratio, resolution, audio, negative_prompt, seed)',
    });
    expect(refused({ prompt: 'the prompt' })).toMatchObject({ field: 'input_map.prompt' });
    expect(refused({ prompt: 7 })).toMatchObject({ field: 'input_map.prompt' });
    expect(refused({ seconds: { field: 'duration', as: 'minutes' } })).toMatchObject({
      field: 'input_map.seconds.as',
      message: 'input_map.seconds.as must be one of integer, string, seconds',
    });
    expect(refused({ prompt: { field: 'prompt', as: 'string' } })).toMatchObject({ field: 'input_map.prompt.as' });
    expect(refused({ seconds: { field: 'duration', unit: 's' } })).toMatchObject({ field: 'input_map.seconds.unit' });
    expect(refused({ seconds: { as: 'string' } })).toMatchObject({ field: 'input_map.seconds.field' });
    expect(refused({ seed: { field: 'seed', values: { 1: 2 } } })).toMatchObject({ field: 'input_map.seed.values' });
    expect(refused({ resolution: { field: 'resolution', values: { '720p': null } } })).toMatchObject({
      field: 'input_map.resolution.values.720p',
    });
    expect(refused({ prompt: 'text', negative_prompt: 'text' })).toEqual({
      field: 'input_map.negative_prompt',
      message: 'input_map.negative_prompt writes text, which prompt writes already',
    });
  });

  it('maps a settled request: numbers as integer (default), string or seconds; words through values; what the map does not name is not sent', () => {
    const map = inputMapOf({
      ...KLING_MAP,
      seed: { field: 'seed', as: 'integer' },
      resolution: { field: 'res', values: { '768p': '768P' } },
    });
    expect(
      mapInput(map, {
        prompt: 'a fox',
        seconds: 5,
        aspect_ratio: '16:9',
        resolution: '768p',
        audio: false,
        seed: 42,
        first_frame: 'https://x/a.png',
      }),
    ).toEqual({
      prompt: 'a fox',
      duration: '5',
      aspect_ratio: '16:9',
      res: '768P',
      generate_audio: false,
      seed: 42,
      image_url: 'https://x/a.png',
    });
    expect(mapInput(inputMapOf({ seconds: { field: 'duration', as: 'seconds' } }), { prompt: 'p', seconds: 8 })).toEqual({
      duration: '8s',
    });
    expect(mapInput(inputMapOf({ seconds: 'duration' }), { seconds: 6 })).toEqual({ duration: 6 });
    expect(firstUnmapped(inputMapOf({ prompt: 'prompt' }), ['prompt', 'seed', 'audio'])).toBe('seed');
    expect(inputMapOf({ size: 'size' })).toEqual({});
  });

  it('finds the video URL at an output path: a string, the first of a list, or a file object', () => {
    expect(videoUrlAt({ video: { url: 'https://v3.fal.media/a.mp4' } }, 'video.url')).toBe('https://v3.fal.media/a.mp4');
    expect(videoUrlAt({ video: { url: 'https://v3.fal.media/a.mp4' } }, 'video')).toBe('https://v3.fal.media/a.mp4');
    expect(videoUrlAt({ output: 'https://replicate.delivery/a.mp4' }, 'output')).toBe('https://replicate.delivery/a.mp4');
    expect(videoUrlAt({ output: ['https://replicate.delivery/a.mp4', 'https://b'] }, 'output')).toBe('https://replicate.delivery/a.mp4');
    expect(videoUrlAt({ videos: [{ url: 'https://x/0.mp4' }, { url: 'https://x/1.mp4' }] }, 'videos[1].url')).toBe('https://x/1.mp4');
    expect(videoUrlAt({ output: null }, 'output')).toBeUndefined();
    expect(videoUrlAt({ video: { url: 7 } }, 'video.url')).toBeUndefined();
    expect(videoUrlAt({ constructor: 'x' }, 'constructor')).toBe('x');
    expect(videoUrlAt({}, 'toString')).toBeUndefined();
    expect(outputPathProblem('videos[0].url')).toBeNull();
    expect(outputPathProblem('video..url')).toContain('dotted path');
    expect(outputPathProblem(3)).toContain('dotted path');
  });

  it('checks a hosted route: input_map required, output a path, nothing else', () => {
    expect(checkHostedRouteOptions({ input_map: KLING_MAP, output: 'video.url' })).toBeNull();
    expect(checkHostedRouteOptions({})).toMatchObject({ field: 'input_map', message: expect.stringContaining('input_map is required') });
    expect(checkHostedRouteOptions({ input_map: KLING_MAP, cfg_scale: true })).toMatchObject({ field: 'cfg_scale' });
    expect(checkHostedRouteOptions({ input_map: KLING_MAP, output: 'a b' })).toMatchObject({ field: 'output' });
    expect(checkHostedRouteOptions({ input_map: { seconds: { field: 'duration', as: 'hours' } } })).toMatchObject({
      field: 'input_map.seconds.as',
    });
    const route: CatalogRoute = { platform: 'fal', upstreamModel: 'x/y', options: { input_map: { prompt: 'prompt' } } };
    expect(hostedRouteOf(route, 'video.url')).toEqual({ inputMap: { prompt: { field: 'prompt' } }, output: 'video.url' });
    expect(hostedRouteOf({ ...route, options: { ...route.options, output: 'videos[0]' } }, 'video.url').output).toBe('videos[0]');
  });
});

describe('settleHostedRequest: the shared fields against the entry and the route', () => {
  const entry: CatalogEntry = {
    id: 'm',
    label: null,
    aliases: [],
    ownedBy: null,
    releasedAt: null,
    modes: ['text-to-video', 'image-to-video'],
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['720p', '1080p'],
    aspectRatios: ['16:9', '9:16'],
    audio: 'optional',
    maxReferenceImages: null,
    promptMaxLength: 100,
    prices: [],
    routes: [],
    status: 'active',
    sunsetAt: null,
    replacement: null,
    source: 'custom',
    modified: false,
  };
  const route: CatalogRoute = {
    platform: 'fal',
    upstreamModel: { 'text-to-video': 'o/a/t2v', 'image-to-video': 'o/a/i2v' },
    options: { input_map: KLING_MAP },
  };
  const settle = (body: Partial<HostedVideoRequestDto>, options: { entry?: Partial<CatalogEntry>; map?: object; file?: boolean } = {}) => {
    const routed = options.map ? { ...route, options: { input_map: options.map } } : route;
    return settleHostedRequest(
      'm',
      { entry: { ...entry, ...options.entry }, route: routed },
      hostedRouteOf(routed, 'video.url'),
      { model: 'm', ...body },
      options.file ?? false,
    );
  };
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (error instanceof AppError) return { param: error.options.param, message: error.message };
      throw error;
    }
    throw new Error('not refused');
  };

  it('text-to-video: the billed length, resolution and audio are always sent where mapped; the aspect ratio when asked', () => {
    expect(settle({ prompt: 'a fox' })).toEqual({
      mode: 'text-to-video',
      input: { prompt: 'a fox', duration: '5', resolution: '720p', generate_audio: false },
      frames: {},
      quote: { model: 'm', resolution: '720p', seconds: 5, audio: false },
      size: '1280x720',
    });
    expect(settle({ prompt: 'a fox', size: '1080X1920', duration: 10, audio: true, seed: 7 })).toMatchObject({
      input: { prompt: 'a fox', duration: '10', aspect_ratio: '9:16', resolution: '1080p', generate_audio: true, seed: 7 },
      quote: { resolution: '1080p', seconds: 10, audio: true },
      size: '1080x1920',
    });
  });

  it("the size asked (the flat form's size): the client's, else the resolution at the aspect ratio asked or the entry's first", () => {
    expect(settle({ prompt: 'p', aspect_ratio: '9:16', resolution: '1080p' }).size).toBe('1080x1920');
    expect(settle({ prompt: 'p', resolution: '1080p' }).size).toBe('1920x1080');
    expect(settle({ prompt: 'p' }, { entry: { resolutions: ['4k'] } }).size).toBeUndefined();
  });

  it('image and last frame: the modes and the fields their images go to', () => {
    expect(settle({ prompt: 'p', input_reference: 'https://x/a.png' })).toMatchObject({
      mode: 'image-to-video',
      frames: { first: 'image_url' },
    });
    expect(settle({}, { file: true })).toMatchObject({ mode: 'image-to-video', frames: { first: 'image_url' } });
    expect(refusal(() => settle({ prompt: 'p', input_reference: 'a', last_frame: 'b' }))).toEqual({
      param: 'last_frame',
      message: 'last_frame is not taken by m',
    });
    // A route by mode names the endpoint of first-last-frame too (here the image-to-video one).
    const withLast = { ...route, upstreamModel: { 'image-to-video': 'o/a/i2v', 'first-last-frame': 'o/a/i2v' } };
    expect(
      settleHostedRequest(
        'm',
        { entry: { ...entry, modes: ['image-to-video', 'first-last-frame'] }, route: withLast },
        hostedRouteOf(withLast, 'video.url'),
        { model: 'm', input_reference: 'a', last_frame: 'b' },
        false,
      ),
    ).toMatchObject({ mode: 'first-last-frame', frames: { first: 'image_url', last: 'tail_image_url' } });
    expect(
      refusal(() => settle({ input_reference: 'a', last_frame: 'b' }, { entry: { modes: ['image-to-video', 'first-last-frame'] } })),
    ).toEqual({
      param: 'last_frame',
      message: 'last_frame is not taken by m',
    });
  });

  it('refuses, naming the field sent, a field the map does not name unless its value is the entry default', () => {
    const narrow = { prompt: 'prompt', seconds: { field: 'duration', as: 'string' } };
    expect(refusal(() => settle({ prompt: 'p', seed: 1 }, { map: narrow }))).toEqual({ param: 'seed', message: 'seed is not taken by m' });
    expect(refusal(() => settle({ prompt: 'p', negative_prompt: 'n' }, { map: narrow }))).toMatchObject({ param: 'negative_prompt' });
    expect(refusal(() => settle({ prompt: 'p', audio: true }, { map: narrow }))).toMatchObject({ param: 'audio' });
    expect(refusal(() => settle({ prompt: 'p', resolution: '1080p' }, { map: narrow }))).toMatchObject({ param: 'resolution' });
    expect(refusal(() => settle({ prompt: 'p', size: '1080x1920' }, { map: narrow }))).toMatchObject({ param: 'size' });
    expect(refusal(() => settle({ input_reference: 'https://x/a.png' }, { map: narrow }))).toMatchObject({ param: 'input_reference' });
    expect(refusal(() => settle({ prompt: 'p', duration: 10 }, { map: { prompt: 'prompt' } }))).toMatchObject({ param: 'duration' });
    // The entry's defaults are what the endpoint makes unasked.
    expect(
      settle({ prompt: 'p', size: '1280x720', resolution: '720P', audio: false, duration: 5 }, { map: { prompt: 'prompt' } }),
    ).toMatchObject({
      input: { prompt: 'p' },
      quote: { resolution: '720p', seconds: 5, audio: false },
    });
  });

  it('refuses what the entry does not offer, before any charge', () => {
    expect(refusal(() => settle({}))).toMatchObject({ param: 'prompt' });
    expect(refusal(() => settle({ prompt: 'p', duration: 7 }))).toEqual({
      param: 'duration',
      message: 'duration must be 5 or 10 seconds for m',
    });
    expect(refusal(() => settle({ prompt: 'p', aspect_ratio: '1:1' }))).toMatchObject({ param: 'aspect_ratio' });
    expect(refusal(() => settle({ prompt: 'p', resolution: '4k' }))).toMatchObject({ param: 'resolution' });
    expect(refusal(() => settle({ prompt: 'p', size: '640x480' }))).toMatchObject({ param: 'size' });
    expect(refusal(() => settle({ prompt: 'p', size: '1280x720', aspect_ratio: '9:16' }))).toMatchObject({ param: 'aspect_ratio' });
    expect(refusal(() => settle({ prompt: 'x'.repeat(101) }))).toMatchObject({ param: 'prompt' });
    expect(refusal(() => settle({ prompt: 'p', audio: true }, { entry: { audio: 'none' } }))).toMatchObject({ param: 'audio' });
    expect(refusal(() => settle({ prompt: 'p', audio: false }, { entry: { audio: 'always' } }))).toMatchObject({ param: 'audio' });
    expect(refusal(() => settle({ last_frame: 'b' }))).toMatchObject({ param: 'last_frame' });
    expect(refusal(() => settle({ prompt: 'p' }, { entry: { modes: ['image-to-video'] } }))).toMatchObject({ param: 'input_reference' });
    // A route by mode without an endpoint for the mode cannot serve it.
    const textOnly = { ...route, upstreamModel: { 'text-to-video': 'o/a/t2v' } };
    expect(
      refusal(() =>
        settleHostedRequest(
          'm',
          { entry, route: textOnly },
          hostedRouteOf(textOnly, 'video.url'),
          { model: 'm', input_reference: 'a' },
          false,
        ),
      ),
    ).toMatchObject({ param: 'input_reference' });
  });
});
