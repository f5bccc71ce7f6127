import type { CatalogEntry } from '../../catalog/catalog-entry';
import type { SourceVideo } from '../family';
import { builtinCatalogModel, refusedField, SOURCE_LINK, sourceVideo } from '../shared/family.spec-support';
import { WAN_BUILTIN_ENTRIES } from './wan-catalog';
import { buildWanBody } from './wan-protocol';
import type { WanVideoRequestDto } from './wan-request.dto';
import { settleWanSourceRequest } from './wan-source-rules';
import { settleWanRequest } from './wan-task-rules';

const LINK = SOURCE_LINK;
const source = (changes: Partial<SourceVideo> = {}): SourceVideo => sourceVideo({ resolution: '720p', ...changes });
const EDIT = 'wan2.7-videoedit';
const EXTEND = 'wan2.7-i2v';
const settle = (
  model: string,
  body: Partial<WanVideoRequestDto>,
  from: Partial<SourceVideo> = {},
  hasImage = false,
  changes: Partial<CatalogEntry> = {},
) =>
  settleWanSourceRequest(
    model,
    builtinCatalogModel(WAN_BUILTIN_ENTRIES, model, changes),
    { model, ...body },
    hasImage,
    source({ ...(model === EXTEND ? { mode: 'video-extend' as const } : {}), ...from }),
  );
const wire = (settled: ReturnType<typeof settle>, model: string) =>
  buildWanBody(settled.request, model, (image) => ('url' in image ? image.url : 'staged'));

describe('Wan 2.7 edits (wan2.7-videoedit) and extensions (wan2.7-i2v first_clip) of a stored video', () => {
  it("an edit: the link as media video, no duration (DashScope's 0: the source's length), priced by the source's seconds", () => {
    const settled = settle(EDIT, { prompt: 'clay style', seed: 4, metadata: { audio_setting: 'origin' } });
    expect(settled).toMatchObject({ seconds: 6, resolution: '720p', audio: true });
    expect(wire(settled, EDIT)).toEqual({
      model: EDIT,
      input: { prompt: 'clay style', media: [{ type: 'video', url: LINK }] },
      parameters: { audio_setting: 'origin', seed: 4, resolution: '720P' },
    });
    // Without a prompt DashScope makes its default style transfer; a resolution asked is the entry's.
    expect(wire(settle(EDIT, { resolution: '1080p' }), EDIT).input).toEqual({ media: [{ type: 'video', url: LINK }] });
    expect(settle(EDIT, {}, { resolution: '480p' }).resolution).toBe('1080p');
  });

  it("an extension: the link as first_clip, duration the whole new video's length (default the source's plus 5, at most 15)", () => {
    const settled = settle(EXTEND, { prompt: 'the door opens', duration: 12 }, { seconds: 2 });
    expect(settled.seconds).toBe(12);
    expect(wire(settled, EXTEND)).toEqual({
      model: EXTEND,
      input: { prompt: 'the door opens', media: [{ type: 'first_clip', url: LINK }] },
      parameters: { resolution: '720P', duration: 12 },
    });
    expect(settle(EXTEND, {}, { seconds: 4 }).seconds).toBe(9);
    expect(settle(EXTEND, {}, { seconds: 10 }).seconds).toBe(15);
  });

  it.each([
    ['an edit given a length', EDIT, { duration: 5 }, {}, false, 'duration'],
    ['an edit of an 11 s source', EDIT, {}, { seconds: 11, field: 'id' }, false, 'id'],
    ['an extension of a 1 s source', EXTEND, {}, { seconds: 1 }, false, 'metadata.source_task_id'],
    ['an extension no longer than its source', EXTEND, { duration: 6 }, {}, false, 'duration'],
    ['an extension past 15 s', EXTEND, { duration: 16 }, {}, false, 'duration'],
    ['a first frame', EXTEND, {}, {}, true, 'input_reference'],
    ['a last frame', EXTEND, { last_frame: 'https://x/l.png' }, {}, false, 'last_frame'],
    ['an aspect ratio', EDIT, { aspect_ratio: '16:9' }, {}, false, 'aspect_ratio'],
    ['a size', EDIT, { size: '1280x720' }, {}, false, 'size'],
    ['an audio switch', EDIT, { audio: true }, {}, false, 'audio'],
    ['a resolution the entry lacks', EDIT, { resolution: '480p' }, {}, false, 'resolution'],
    ['the duration in metadata', EXTEND, { metadata: { duration: 3 } }, {}, false, 'metadata.duration'],
  ])('refuses %s, naming the field', (_name, model, body, from, hasImage, field) => {
    expect(refusedField(() => settle(model, body, from, hasImage))).toBe(field);
  });

  it('a route on the legacy wire is refused naming the model; wan2.7-videoedit without a source names metadata.source_task_id', () => {
    const legacy = { routes: [{ platform: 'wan', upstreamModel: EXTEND, options: { protocol: 'legacy' } }] } as Partial<CatalogEntry>;
    expect(refusedField(() => settle(EXTEND, {}, {}, false, legacy))).toBe('model');
    expect(
      refusedField(() => settleWanRequest(EDIT, builtinCatalogModel(WAN_BUILTIN_ENTRIES, EDIT), { model: EDIT, prompt: 'p' }, false)),
    ).toBe('metadata.source_task_id');
  });
});
