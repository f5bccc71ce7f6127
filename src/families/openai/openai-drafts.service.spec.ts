import type { CatalogEntry } from '../../catalog/catalog-entry';
import type { AppError } from '../../common/errors/app-error';
import type { AppConfig } from '../../config/app-config';
import { OPENAI_BUILTIN_ENTRIES, openAiChannelModelCapabilities } from './openai-catalog';
import { OpenAiDrafts } from './openai-drafts.service';
import { OpenAiInputFiles } from './openai-input-files.service';
import type { OpenAiReferenceCheck } from './openai-reference-check.service';
import { builtinEntry, customEntry } from '../shared/family.spec-support';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
const drafts = new OpenAiDrafts(
  new OpenAiInputFiles(),
  { check: () => Promise.resolve() } as unknown as OpenAiReferenceCheck,
  {} as AppConfig,
);
const builtin = (id: string): CatalogEntry => builtinEntry(OPENAI_BUILTIN_ENTRIES, id);
const custom = (changes: Partial<CatalogEntry>) => customEntry(builtin('sora-2'), 'acme-video', changes);
const prepare = (entry: CatalogEntry, body: Record<string, unknown>, file?: Buffer) =>
  drafts.prepare(
    entry.id,
    { form: 'flat', body: { model: entry.id, prompt: 'p', ...body }, ...(file ? { inputReferenceFile: { buffer: file } } : {}) },
    {},
    { entry, route: entry.routes[0] },
  );
const refusal = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    await run();
  } catch (error) {
    return `${(error as AppError).options.param}: ${(error as Error).message}`;
  }
  return 'accepted';
};

describe('family O rules (builtin entries)', () => {
  it('sends and bills 4 s by default, any size, and refuses a length Sora does not make', async () => {
    const { draft } = await prepare(builtin('sora-2'), {});
    expect(draft).toMatchObject({ mode: 'text-to-video', request: { prompt: 'p', seconds: 4 }, quote: { resolution: '*', seconds: 4 } });
    expect((await prepare(builtin('sora-2-pro'), { duration: 12, size: '1792x1024' })).draft.quote).toMatchObject({
      resolution: '1792x1024',
      seconds: 12,
    });
    expect(await refusal(() => prepare(builtin('sora-2'), { duration: 7 }))).toBe(
      'duration: duration must be 4, 8 or 12 seconds for sora-2',
    );
  });

  it('adopts a model a channel listed before the catalog as the gateway took it then', () => {
    expect(openAiChannelModelCapabilities('sora-3')).toEqual({ durations: [4, 8, 12], defaultDuration: 4 });
    expect(openAiChannelModelCapabilities('Studio-Clip')).toEqual({ durations: { min: 1, max: 120 }, defaultDuration: 4 });
  });
});

describe('family O rules read the catalog entry', () => {
  it("takes a new model's lengths, default, sizes, modes and prompt length from its entry alone", async () => {
    const model = custom({ durations: [6, 10, 30], defaultDuration: 10, resolutions: ['1920x1080', '1080x1920'], promptMaxLength: 20 });
    const { draft } = await prepare(model, {});
    expect(draft).toMatchObject({ request: { seconds: 10, size: '1920x1080' }, quote: { resolution: '1920x1080', seconds: 10 } });
    expect((await prepare(model, { duration: 30, size: '1080x1920' })).draft.request).toMatchObject({ seconds: 30, size: '1080x1920' });
    expect(await refusal(() => prepare(model, { duration: 12 }))).toBe('duration: duration must be 6, 10 or 30 seconds for acme-video');
    expect(await refusal(() => prepare(model, { size: '1280x720' }))).toBe('size: size must be one of 1920x1080, 1080x1920 for acme-video');
    expect(await refusal(() => prepare(model, { prompt: 'x'.repeat(21) }))).toBe('prompt: prompt must be at most 20 characters');
    expect(await refusal(() => prepare(custom({ modes: ['text-to-video'] }), {}, PNG))).toBe(
      'input_reference: acme-video does not take image-to-video requests',
    );
    expect(await refusal(() => prepare(custom({ modes: ['image-to-video'] }), {}))).toBe(
      'input_reference: acme-video is not a text-to-video model: input_reference is required',
    );
    expect((await prepare(custom({ modes: ['image-to-video'] }), {}, PNG)).draft.mode).toBe('image-to-video');
  });
});
