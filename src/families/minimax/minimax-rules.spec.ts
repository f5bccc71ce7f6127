import type { CatalogEntry } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import { MINIMAX_BUILTIN_ENTRIES } from './minimax-catalog';
import { minimaxModelOf, parseMinimaxBody } from './minimax-rules';
import type { MinimaxVideoRequestDto } from './minimax-request.dto';

/** A builtin model's catalog entry, as the submit pipeline hands it over. */
const entryOf = (model: string): CatalogEntry => ({
  ...MINIMAX_BUILTIN_ENTRIES.find((candidate) => candidate.id === model)!,
  source: 'builtin',
  modified: false,
});
const parse = (body: Partial<MinimaxVideoRequestDto>, model = 'MiniMax-Hailuo-2.3', hasFile = false, entry = entryOf(model)) =>
  parseMinimaxBody({ model, prompt: 'p', ...body }, model, minimaxModelOf({ entry, route: entry.routes[0] }), hasFile);
const refusal = (run: () => unknown): { param?: string; message: string } => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { param: (error as AppError).options.param, message: (error as Error).message };
  }
  throw new Error('not refused');
};

describe('MiniMax request rules', () => {
  it('defaults to 6 s at 768P and reads size by its short side', () => {
    expect(parse({})).toMatchObject({ duration: 6, resolution: '768P' });
    expect(parse({ size: '1920x1080', duration: 6 })).toMatchObject({ resolution: '1080P' });
    expect(parse({ resolution: '768p', duration: 10 })).toMatchObject({ resolution: '768P', duration: 10 });
  });

  it('refuses durations other than 6 and 10, and 10 s at 1080P', () => {
    expect(refusal(() => parse({ duration: 5 }))).toEqual({
      param: 'duration',
      message: 'duration must be 6 or 10 seconds for MiniMax-Hailuo-2.3',
    });
    expect(refusal(() => parse({ duration: 10, resolution: '1080P' })).message).toMatch(/^duration must be 6 at 1080P/);
  });

  it('keeps 2.3-Fast image-to-video only and 512P for -02 image-to-video only', () => {
    expect(refusal(() => parse({}, 'MiniMax-Hailuo-2.3-Fast')).message).toMatch(/image-to-video only/);
    expect(parse({ input_reference: 'https://x.example/f.png' }, 'MiniMax-Hailuo-2.3-Fast')).toMatchObject({
      firstFrame: { field: 'input_reference' },
    });
    expect(parse({}, 'MiniMax-Hailuo-2.3-Fast', true)).toMatchObject({ resolution: '768P' });
    expect(refusal(() => parse({ resolution: '512P' }, 'MiniMax-Hailuo-02')).message).toMatch(/^resolution must be one of 768P, 1080P/);
    expect(parse({ resolution: '512P', input_reference: 'https://x.example/f.png' }, 'MiniMax-Hailuo-02')).toMatchObject({
      resolution: '512P',
    });
    expect(refusal(() => parse({ resolution: '512P', input_reference: 'https://x.example/f.png' })).message).toMatch(
      /^resolution must be one of 768P, 1080P/,
    );
  });

  it('takes last_frame on -02 with a first frame only', () => {
    expect(refusal(() => parse({ last_frame: 'https://x.example/l.png', input_reference: 'https://x.example/f.png' })).message).toMatch(
      /^last_frame is not taken/,
    );
    expect(refusal(() => parse({ last_frame: 'https://x.example/l.png' }, 'MiniMax-Hailuo-02')).message).toMatch(/needs a first frame/);
  });

  it('refuses what MiniMax does not take and metadata keys the gateway sets', () => {
    expect(refusal(() => parse({ negative_prompt: 'blur' })).message).toMatch(/^negative_prompt is not taken/);
    expect(refusal(() => parse({ seed: 3 })).message).toMatch(/^seed is not taken/);
    expect(refusal(() => parse({ aspect_ratio: '9:16' })).message).toMatch(/^aspect_ratio must be 16:9/);
    expect(refusal(() => parse({ size: '1280x720' })).message).toMatch(/^size must be/);
    expect(refusal(() => parse({ size: '1366x768', resolution: '1080P' })).message).toMatch(/^size does not match/);
    expect(refusal(() => parse({ metadata: { duration: 10 } })).message).toBe('metadata.duration is set by the gateway');
    expect(parse({ metadata: { prompt_optimizer: false } }).metadata).toEqual({ prompt_optimizer: false });
  });
});

describe('MiniMax rules read the catalog entry', () => {
  /** A model an operator adds: T2V-01-Director, text-to-video only, 720p for 6 s, prompts of 100. */
  const director: CatalogEntry = {
    ...entryOf('MiniMax-Hailuo-2.3'),
    id: 'T2V-01-Director',
    modes: ['text-to-video'],
    durations: [6],
    defaultDuration: 6,
    resolutions: ['720p'],
    promptMaxLength: 100,
    routes: [{ platform: 'minimax', upstreamModel: 'T2V-01-Director' }],
  };
  const parseDirector = (body: Partial<MinimaxVideoRequestDto>, hasFile = false, entry = director) =>
    parse(body, 'T2V-01-Director', hasFile, entry);

  it("takes a new model's lengths, default and resolutions from its entry alone, upper case on the wire", () => {
    expect(parseDirector({})).toMatchObject({ duration: 6, resolution: '720P', mode: 'text-to-video' });
    expect(parseDirector({ resolution: '720p' })).toMatchObject({ resolution: '720P' });
    expect(parseDirector({ size: '1280x720' })).toMatchObject({ resolution: '720P' });
    expect(refusal(() => parseDirector({ duration: 10 }))).toEqual({
      param: 'duration',
      message: 'duration must be 6 seconds for T2V-01-Director',
    });
    expect(refusal(() => parseDirector({ resolution: '768P' }))).toEqual({
      param: 'resolution',
      message: 'resolution must be one of 720P for T2V-01-Director text-to-video',
    });
    expect(refusal(() => parseDirector({ size: '1366x768' }))).toEqual({
      param: 'size',
      message: 'size must be <width>x<height> with a short side of 720 for T2V-01-Director text-to-video',
    });
    const longer = { ...director, durations: { min: 4, max: 10 }, defaultDuration: 8, resolutions: ['720p', '1080p'] };
    expect(parseDirector({ duration: 9 }, false, longer)).toMatchObject({ duration: 9, resolution: '720P' });
    expect(parseDirector({}, false, longer)).toMatchObject({ duration: 8 });
    // MiniMax's protocol stays: 1080P is 6 s only.
    expect(refusal(() => parseDirector({ duration: 8, resolution: '1080P' }, false, longer)).param).toBe('duration');
  });

  it('reads its modes and prompt length from the entry', () => {
    expect(refusal(() => parseDirector({ input_reference: 'https://x.example/f.png' }))).toEqual({
      param: 'input_reference',
      message: 'T2V-01-Director does not take image-to-video requests',
    });
    expect(refusal(() => parseDirector({ prompt: 'p'.repeat(101) }))).toEqual({
      param: 'prompt',
      message: 'prompt must be at most 100 characters for T2V-01-Director',
    });
    const withFrames = { ...director, modes: ['image-to-video' as const, 'first-last-frame' as const], resolutions: ['512p', '768p'] };
    expect(refusal(() => parseDirector({}, false, withFrames)).param).toBe('input_reference');
    expect(
      parseDirector({ input_reference: 'https://x.example/f.png', last_frame: 'https://x.example/l.png' }, false, withFrames),
    ).toMatchObject({ mode: 'first-last-frame', resolution: '512P' });
  });
});

describe('MiniMax-H3 rules (the v2 API)', () => {
  const h3 = (body: Partial<MinimaxVideoRequestDto>, hasFile = false) => parse(body, 'MiniMax-H3', hasFile);

  it('picks v2 by the upstream id or the route option, and defaults to 5 s at 2K and 16:9', () => {
    const entry = entryOf('MiniMax-H3');
    expect(minimaxModelOf({ entry, route: entry.routes[0] }).api).toBe('v2');
    expect(minimaxModelOf({ entry, route: { ...entry.routes[0], upstreamModel: 'h3-dated', options: { api: 'v2' } } }).api).toBe('v2');
    expect(minimaxModelOf({ entry: entryOf('MiniMax-Hailuo-02'), route: entryOf('MiniMax-Hailuo-02').routes[0] }).api).toBe('v1');
    expect(h3({})).toMatchObject({ duration: 5, resolution: '2K', ratio: '16:9', mode: 'text-to-video' });
    expect(h3({ size: '1366x768', duration: 15 })).toMatchObject({ resolution: '768P', ratio: '16:9', duration: 15 });
    expect(h3({ aspect_ratio: '21:9', resolution: '2k' })).toMatchObject({ resolution: '2K', ratio: '21:9' });
    const framed = h3({ input_reference: 'https://x.example/a.png', last_frame: 'https://x.example/b.png' });
    expect(framed).toMatchObject({ mode: 'first-last-frame', resolution: '2K' });
    expect(framed.ratio).toBeUndefined();
    expect(h3({ prompt: 'x'.repeat(7000) }).prompt).toHaveLength(7000);
  });

  it.each([
    [{ duration: 4 }, false, 'duration'],
    [{ duration: 16 }, false, 'duration'],
    [{ resolution: '1080P' }, false, 'resolution'],
    [{ size: '1920x1080' }, false, 'size'],
    [{ aspect_ratio: 'adaptive' }, false, 'aspect_ratio'],
    [{ aspect_ratio: '16:9' }, true, 'aspect_ratio'],
    [{ last_frame: 'https://x.example/b.png' }, false, 'input_reference'],
    [{ prompt: ' ' }, false, 'prompt'],
    [{ prompt: 'x'.repeat(7001) }, false, 'prompt'],
    [{ metadata: { content: [] } }, false, 'metadata.content'],
    [{ metadata: { ratio: '1:1' } }, false, 'metadata.ratio'],
    [{ negative_prompt: 'blur' }, false, 'negative_prompt'],
  ])('refuses %j (file part: %s) naming %s', (body, hasFile, param) => {
    expect(refusal(() => h3(body as Partial<MinimaxVideoRequestDto>, hasFile)).param).toBe(param);
  });
});
