import type { CatalogEntry } from '../../catalog/catalog-entry';
import { parseGammaBody } from './gamma-body.parser';
import { GAMMA_BUILTIN_ENTRIES } from './gamma-catalog';
import type { GammaVideoRequestDto } from './gamma-request.dto';
import { builtinEntry, customEntry, itRefusesNamingTheField, refusalOf } from '../shared/family.spec-support';

const builtin = (id: string): CatalogEntry => builtinEntry(GAMMA_BUILTIN_ENTRIES, id);
const parse = (entry: CatalogEntry, body: Partial<GammaVideoRequestDto>) =>
  parseGammaBody({ model: entry.id, prompt: 'p', ...body }, { entry });
const asset = (id: string) => ({ type: 'image_url' as const, image_url: { url: `asset://${id}` } });
const custom = (changes: Partial<CatalogEntry>) => customEntry(builtin('gamma-2-0'), 'gamma-2-1', changes);

describe('family C rules (builtin entries)', () => {
  it('settles the defaults as before: 5 s, 720p, no ratio unless asked', () => {
    expect(parse(builtin('gamma-2-0'), {}).request).toEqual({ prompt: 'p', references: [], resolution: '720p', duration: 5 });
    expect(parse(builtin('gamma-2-0'), { metadata: { resolution: '1080p', ratio: '9:16', content: [asset('a-1')] } })).toMatchObject({
      request: { resolution: '1080p', ratio: '9:16', references: ['asset://a-1'] },
      references: [{ assetId: 'a-1', field: 'metadata.content[0].image_url.url' }],
    });
  });

  itRefusesNamingTheField(
    [
      ['gamma-2-0', { duration: 3 }, 'duration: duration must be an integer between 4 and 15 seconds'],
      ['gamma-2-0', { duration: 4.5 }, 'duration: duration must be an integer between 4 and 15 seconds'],
      [
        'gamma-2-0-fast',
        { metadata: { resolution: '1080p' } },
        'metadata.resolution: metadata.resolution 1080p is not supported by gamma-2-0-fast (use 480p or 720p)',
      ],
      ['gamma-2-0', { prompt: 'x'.repeat(5001) }, 'prompt: prompt must be at most 5000 characters'],
      [
        'gamma-2-0',
        { metadata: { content: Array(10).fill(asset('a')) } },
        'metadata.content: metadata.content may hold at most 9 reference images',
      ],
    ],
    (model, body) => parse(builtin(model), body),
  );
});

describe('family C rules read the catalog entry', () => {
  it("takes a new model's lengths, default, resolutions, ratios, prompt length and references from its entry alone", () => {
    const model = custom({
      durations: [4, 6, 8, 12],
      defaultDuration: 6,
      resolutions: ['1080p', '720p'],
      aspectRatios: ['9:16', '16:9'],
      promptMaxLength: 8000,
      maxReferenceImages: 2,
    });
    expect(parse(model, { prompt: 'x'.repeat(6000) }).request).toMatchObject({ duration: 6, resolution: '1080p', ratio: '9:16' });
    expect(parse(model, { duration: 12, metadata: { ratio: '16:9' } }).request).toMatchObject({ duration: 12, ratio: '16:9' });
    expect(refusalOf(() => parse(model, { duration: 5 }))).toBe('duration: duration must be 4, 6, 8 or 12 seconds for gamma-2-1');
    expect(refusalOf(() => parse(model, { metadata: { resolution: '480p' } }))).toBe(
      'metadata.resolution: metadata.resolution 480p is not supported by gamma-2-1 (use 720p or 1080p)',
    );
    expect(refusalOf(() => parse(model, { metadata: { ratio: '1:1' } }))).toBe(
      'metadata.ratio: metadata.ratio must be one of 9:16, 16:9 for gamma-2-1',
    );
    expect(refusalOf(() => parse(model, { prompt: 'x'.repeat(8001) }))).toBe('prompt: prompt must be at most 8000 characters');
    expect(refusalOf(() => parse(model, { metadata: { content: Array(3).fill(asset('a')) } }))).toBe(
      'metadata.content: metadata.content may hold at most 2 reference images',
    );
  });

  it('takes its modes from the entry: references need reference-to-video, none need text-to-video', () => {
    expect(refusalOf(() => parse(custom({ modes: ['text-to-video'] }), { metadata: { content: [asset('a')] } }))).toBe(
      'metadata.content: gamma-2-1 takes no reference images (it is text-to-video only)',
    );
    expect(refusalOf(() => parse(custom({ modes: ['reference-to-video'] }), {}))).toBe(
      'metadata.content: gamma-2-1 needs reference images in metadata.content (it is not a text-to-video model)',
    );
  });
});
