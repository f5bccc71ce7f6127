import type { CatalogEntry } from '../../catalog/catalog-entry';
import { betaModelOf, parseBetaBody, videoEditBilledSeconds } from './beta-body.parser';
import { BETA_BUILTIN_ENTRIES } from './beta-catalog';
import type { BetaVideoRequestDto } from './beta-request.dto';
import { builtinEntry, customEntry, itRefusesNamingTheField, refusalOf } from '../shared/family.spec-support';

const builtin = (id: string): CatalogEntry => builtinEntry(BETA_BUILTIN_ENTRIES, id);
const parse = (entry: CatalogEntry, body: Partial<BetaVideoRequestDto>) =>
  parseBetaBody({ model: entry.id, prompt: 'p', ...body }, entry.id, betaModelOf({ entry }));
const IMAGE = 'https://cdn.example/a.png';
const VIDEO = 'https://cdn.example/v.mp4';
const custom = (changes: Partial<CatalogEntry>) => customEntry(builtin('beta-1.0-t2v'), 'beta-2.0-t2v', changes);

describe('family B rules (builtin entries)', () => {
  it('settles the defaults as before: 1080P, 5 s, 16:9 for t2v; video-edit billed 15 s', () => {
    expect(parse(builtin('beta-1.0-t2v'), {}).request).toMatchObject({
      capability: 't2v',
      resolution: '1080P',
      duration: 5,
      ratio: '16:9',
    });
    expect(parse(builtin('beta-1.0-i2v'), { input_reference: IMAGE }).request).toMatchObject({ capability: 'i2v', ratio: null });
    expect(videoEditBilledSeconds(builtin('beta-1.0-video-edit'))).toBe(15);
  });

  itRefusesNamingTheField(
    [
      ['beta-1.0-t2v', { duration: 2 }, 'duration: duration must be an integer between 3 and 15 (seconds)'],
      ['beta-1.0-t2v', { duration: 5.5 }, 'duration: duration must be an integer between 3 and 15 (seconds)'],
      ['beta-1.0-t2v', { size: '480P' }, 'size: size must be 720P or 1080P'],
      ['beta-1.0-t2v', { metadata: { ratio: '21:9' } }, 'metadata.ratio: metadata.ratio must be one of 16:9, 9:16, 1:1, 4:3, 3:4'],
      ['beta-1.0-r2v', { input_reference: IMAGE }, 'input_reference: input_reference is only supported by beta-1.0-i2v, not beta-1.0-r2v'],
      [
        'beta-1.0-r2v',
        { metadata: { input: { media: Array(10).fill({ type: 'reference_image', url: IMAGE }) } } },
        'metadata.input.media: beta-1.0-r2v accepts at most 9 reference images, got 10',
      ],
      [
        'beta-1.0-video-edit',
        { metadata: { input: { media: [{ type: 'video', url: VIDEO }, ...Array(6).fill({ type: 'reference_image', url: IMAGE })] } } },
        'metadata.input.media: beta-1.0-video-edit accepts at most 5 reference images, got 6',
      ],
      [
        'beta-1.0-i2v',
        {},
        'input_reference: beta-1.0-i2v requires a first-frame image: input_reference or one metadata.input.media element of type first_frame',
      ],
    ],
    (model, body) => parse(builtin(model), body),
  );
});

describe('family B rules read the catalog entry', () => {
  it("takes a new model's lengths, default, sizes, ratios and prompt budget from its entry alone", () => {
    const model = custom({
      durations: { min: 2, max: 20 },
      defaultDuration: 8,
      resolutions: ['480p', '720p'],
      aspectRatios: ['9:16', '16:9'],
      promptMaxLength: 10,
    });
    const parsed = parse(model, { prompt: 'x'.repeat(12) });
    expect(parsed.request).toMatchObject({ resolution: '480P', duration: 8, ratio: '9:16', prompt: 'x'.repeat(10) });
    expect(parsed.promptTruncated).toBe(true);
    expect(parse(model, { duration: 20, size: '720p' }).request).toMatchObject({ duration: 20, resolution: '720P' });
    expect(parse(model, { size: '854x480' }).request).toMatchObject({ resolution: '480P' });
    expect(refusalOf(() => parse(model, { duration: 21 }))).toBe('duration: duration must be an integer between 2 and 20 (seconds)');
    expect(refusalOf(() => parse(model, { size: '1080P' }))).toBe('size: size must be 480P or 720P');
    expect(refusalOf(() => parse(model, { metadata: { ratio: '1:1' } }))).toBe('metadata.ratio: metadata.ratio must be one of 9:16, 16:9');
    expect(refusalOf(() => parse(custom({ durations: [5, 10], defaultDuration: 5 }), { duration: 7 }))).toBe(
      'duration: duration must be 5 or 10 seconds for beta-2.0-t2v',
    );
  });

  it('takes the capability from the modes: one mode is the model, several are told apart by the media', () => {
    const i2v = custom({ id: 'beta-2.0-i2v', modes: ['image-to-video'] });
    expect(parse(i2v, { input_reference: IMAGE }).request.capability).toBe('i2v');
    expect(refusalOf(() => parse(i2v, {}))).toBe(
      'input_reference: beta-2.0-i2v requires a first-frame image: input_reference or one metadata.input.media element of type first_frame',
    );
    const both = custom({ id: 'beta-2.0', modes: ['text-to-video', 'image-to-video', 'video-edit'], maxReferenceImages: 2 });
    expect(parse(both, {}).request.capability).toBe('t2v');
    expect(parse(both, { input_reference: IMAGE }).request).toMatchObject({ capability: 'i2v', ratio: null });
    expect(parse(both, { metadata: { input: { media: [{ type: 'video', url: VIDEO }] } } }).request).toMatchObject({
      capability: 'video-edit',
      duration: null,
    });
    expect(
      refusalOf(() =>
        parse(both, {
          metadata: { input: { media: [{ type: 'video', url: VIDEO }, ...Array(3).fill({ type: 'reference_image', url: IMAGE })] } },
        }),
      ),
    ).toBe('metadata.input.media: beta-2.0 accepts at most 2 reference images, got 3');
    expect(refusalOf(() => parse(both, { metadata: { input: { media: [{ type: 'reference_image', url: IMAGE }] } } }))).toBe(
      'metadata.input.media[0]: beta-2.0 does not take reference-to-video requests (it takes text-to-video, image-to-video, video-edit)',
    );
    expect(videoEditBilledSeconds(custom({ durations: [4, 8] }))).toBe(8);
  });
});
