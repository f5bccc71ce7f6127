import type { SourceVideo } from '../family';
import { builtinEntry, refusedField, SOURCE_LINK, sourceVideo } from '../shared/family.spec-support';
import { SEEDANCE_BUILTIN_ENTRIES } from './seedance-catalog';
import { buildSeedanceBody } from './seedance-protocol';
import type { SeedanceVideoRequestDto } from './seedance-request.dto';
import { settleSeedanceSourceRequest } from './seedance-source-rules';

const LINK = SOURCE_LINK;
const source = sourceVideo;
const settle = (body: Partial<SeedanceVideoRequestDto>, from: Partial<SourceVideo> = {}, hasFirstFrame = false, model = 'seedance-2-0') =>
  settleSeedanceSourceRequest(
    model,
    builtinEntry(SEEDANCE_BUILTIN_ENTRIES, model),
    { model, prompt: 'make it snow', ...body },
    hasFirstFrame,
    source(from),
  );

describe('Seedance 2.0 edits and extensions of a stored video', () => {
  it("an edit follows its source: its seconds at its resolution, the link as the one reference_video, the prompt led by 'Edit Video 1'", () => {
    const settled = settle({ metadata: { watermark: false }, seed: 3 });
    expect(settled).toMatchObject({ seconds: 6, resolution: '480p', audio: true });
    expect(buildSeedanceBody(settled.request, 'dreamina-seedance-2-0-260128', [])).toEqual({
      watermark: false,
      model: 'dreamina-seedance-2-0-260128',
      content: [
        { type: 'text', text: 'Edit Video 1: make it snow' },
        { type: 'video_url', video_url: { url: LINK }, role: 'reference_video' },
      ],
      duration: 6,
      resolution: '480p',
      ratio: 'adaptive',
      generate_audio: true,
      seed: 3,
    });
    // The frame wins over the resolution it was priced at; unknown, the entry's highest.
    expect(settle({}, { size: '1280x720', resolution: null }).resolution).toBe('720p');
    expect(settle({ audio: false }).audio).toBe(false);
  });

  it('an extension adds duration (4 to 15, default 5) to a source of 2 to 15 s', () => {
    const settled = settle({ duration: 8 }, { mode: 'video-extend', seconds: 2 }, false, 'seedance-2-0-fast');
    expect(settled.seconds).toBe(8);
    expect(buildSeedanceBody(settled.request, 'm', []).content).toEqual([
      { type: 'text', text: 'Extend Video 1: make it snow' },
      { type: 'video_url', video_url: { url: LINK }, role: 'reference_video' },
    ]);
    expect(settle({}, { mode: 'video-extend', seconds: 15 }).seconds).toBe(5);
  });

  it.each([
    ['an edit given a length', { duration: 5 }, {}, false, 'duration'],
    ['an edit of a 3 s source (Ark makes 4 to 15 s)', {}, { seconds: 3, field: 'id' }, false, 'id'],
    ['an edit of a 16 s source', {}, { seconds: 16 }, false, 'metadata.source_task_id'],
    ['an extension of a 16 s source', {}, { mode: 'video-extend' as const, seconds: 16 }, false, 'metadata.source_task_id'],
    ['an extension of 3 s', { duration: 3 }, { mode: 'video-extend' as const }, false, 'duration'],
    ['a first frame', {}, {}, true, 'input_reference'],
    ['a last frame', { last_frame: 'https://x/l.png' }, {}, false, 'last_frame'],
    ['reference images', { reference_images: ['https://x/r.png'] }, {}, false, 'reference_images'],
    ['a size', { size: '1280x720' }, { mode: 'video-extend' as const }, false, 'size'],
    ['an aspect ratio', { aspect_ratio: '16:9' }, {}, false, 'aspect_ratio'],
    ['a resolution', { resolution: '720p' }, {}, false, 'resolution'],
    ['no prompt', { prompt: ' ' }, {}, false, 'prompt'],
    ['the content in metadata', { metadata: { content: [] } }, {}, false, 'metadata.content'],
  ])('refuses %s, naming the field', (_name, body, from, hasFirstFrame, field) => {
    expect(refusedField(() => settle(body, from, hasFirstFrame))).toBe(field);
  });
});
