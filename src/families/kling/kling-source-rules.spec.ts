import type { SourceVideo } from '../family';
import { builtinCatalogModel, refusedField, SOURCE_LINK, sourceVideo } from '../shared/family.spec-support';
import { KLING_BUILTIN_ENTRIES } from './kling-catalog';
import { buildKlingBody, klingCreatePath } from './kling-protocol';
import type { KlingVideoRequestDto } from './kling-request.dto';
import { settleKlingSourceRequest } from './kling-source-rules';
import { klingModelOf } from './kling-task-rules';

const LINK = SOURCE_LINK;
const source = (changes: Partial<SourceVideo> = {}): SourceVideo => sourceVideo({ seconds: 5, resolution: '720p', ...changes });
const settle = (body: Partial<KlingVideoRequestDto>, from: Partial<SourceVideo> = {}, hasImage = false, model = 'kling-v3-omni') =>
  settleKlingSourceRequest(
    model,
    klingModelOf(builtinCatalogModel(KLING_BUILTIN_ENTRIES, model)),
    { model, prompt: 'p', ...body },
    hasImage,
    source(from),
  );
const bodyOf = (settled: ReturnType<typeof settle>) => buildKlingBody(settled.request, 'kling-v3-omni', () => '');

describe('Kling videos from a stored video (omni-video video_list)', () => {
  it('an edit sends the source as the base video, without duration or aspect ratio: priced by its seconds, at its resolution', () => {
    const settled = settle({ negative_prompt: 'blur', metadata: { watermark_info: { enabled: false } } });
    expect(settled).toMatchObject({ seconds: 5, resolution: '720p' });
    expect(klingCreatePath(settled.request.endpoint)).toBe('/v1/videos/omni-video');
    expect(bodyOf(settled)).toEqual({
      watermark_info: { enabled: false },
      model_name: 'kling-v3-omni',
      mode: 'std',
      prompt: 'p',
      negative_prompt: 'blur',
      video_list: [{ video_url: LINK, refer_type: 'base', keep_original_sound: 'yes' }],
    });
    // A 1080p source is edited in pro mode; one of unknown resolution is priced at the highest.
    expect(bodyOf(settle({}, { size: '1920x1080', resolution: null })).mode).toBe('pro');
    expect(settle({}, { resolution: null }).resolution).toBe('1080p');
  });

  it("an extend makes the next shot from the source as a feature video: 3 to 10 s (default 5), in the source's shape", () => {
    const settled = settle({ duration: 4 }, { mode: 'video-extend', size: '720x1280' });
    expect(settled.seconds).toBe(4);
    expect(bodyOf(settled)).toEqual({
      model_name: 'kling-v3-omni',
      mode: 'std',
      duration: '4',
      prompt: 'Based on <<<video_1>>>, generate the next shot: p',
      aspect_ratio: '9:16',
      video_list: [{ video_url: LINK, refer_type: 'feature', keep_original_sound: 'no' }],
    });
    // A prompt that names the video goes as it is; unknown, the shape is 16:9; the sound may be kept.
    const own = bodyOf(settle({ prompt: 'after <<<video_1>>>, rain', metadata: { keep_original_sound: 'yes' } }, { mode: 'video-extend' }));
    expect(own).toMatchObject({ prompt: 'after <<<video_1>>>, rain', duration: '5', aspect_ratio: '16:9' });
    expect(own.video_list).toEqual([{ video_url: LINK, refer_type: 'feature', keep_original_sound: 'yes' }]);
  });

  it.each([
    ['an edit given a length', { duration: 5 }, {}, false, 'duration'],
    ['an extend of 11 s', { duration: 11 }, { mode: 'video-extend' as const }, false, 'duration'],
    ['an extend of 2 s', { duration: 2 }, { mode: 'video-extend' as const }, false, 'duration'],
    ['a source of 2 s', {}, { seconds: 2 }, false, 'metadata.source_task_id'],
    ['a source of 11 s (remix route)', {}, { seconds: 11, field: 'id' }, false, 'id'],
    ['a 480p source', {}, { resolution: '480p' }, false, 'metadata.source_task_id'],
    ['a source wider than 2160 px', {}, { size: '3840x2160' }, false, 'metadata.source_task_id'],
    ['a first frame', {}, {}, true, 'input_reference'],
    ['a last frame', { last_frame: 'https://x/a.png' }, {}, false, 'last_frame'],
    ['an aspect ratio', { aspect_ratio: '16:9' }, { mode: 'video-extend' as const }, false, 'aspect_ratio'],
    ['a resolution', { resolution: '1080p' }, {}, false, 'resolution'],
    ['a size', { size: '1280x720' }, {}, false, 'size'],
    ['sound over the video', { metadata: { sound: 'on' } }, {}, false, 'metadata.sound'],
    ['a video list of its own', { metadata: { video_list: [] } }, {}, false, 'metadata.video_list'],
    ['frames in metadata', { metadata: { image_list: [] } }, {}, false, 'metadata.image_list'],
    ['keep_original_sound other than yes or no', { metadata: { keep_original_sound: true } }, {}, false, 'metadata.keep_original_sound'],
    ['an empty prompt', { prompt: ' ' }, {}, false, 'prompt'],
  ])('refuses %s, naming the field', (_name, body, from, hasImage, field) => {
    expect(refusedField(() => settle(body, from, hasImage))).toBe(field);
  });

  it('refuses a route that does not speak omni-video, naming the field that named the source', () => {
    expect(refusedField(() => settle({}, {}, false, 'kling-v3'))).toBe('metadata.source_task_id');
  });
});
