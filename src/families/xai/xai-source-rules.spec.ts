import type { SourceVideo } from '../family';
import { builtinEntry, refusedField, SOURCE_LINK, sourceVideo } from '../shared/family.spec-support';
import { XAI_BUILTIN_ENTRIES } from './xai-catalog';
import { buildXaiBody, xaiCreatePath } from './xai-protocol';
import type { XaiVideoRequestDto } from './xai-request.dto';
import { settleXaiSourceRequest } from './xai-source-rules';

const LINK = SOURCE_LINK;
const source = sourceVideo;
const settle = (body: Partial<XaiVideoRequestDto>, from: Partial<SourceVideo> = {}, hasImage = false) =>
  settleXaiSourceRequest(
    'grok-imagine-video',
    { entry: builtinEntry(XAI_BUILTIN_ENTRIES, 'grok-imagine-video') },
    { model: 'grok-imagine-video', prompt: 'p', ...body },
    hasImage,
    source(from),
  );

describe('xAI remixes: edits and extensions of a stored video', () => {
  it("an edit follows its source: its seconds, at the source's resolution; sent to /v1/videos/edits with video.url only", () => {
    const settled = settle({ metadata: { user: 'u' } });
    expect(settled).toMatchObject({ seconds: 6, resolution: '480p', audio: true });
    expect(xaiCreatePath(settled.request)).toBe('/v1/videos/edits');
    expect(buildXaiBody(settled.request, 'grok-imagine-video', undefined)).toEqual({
      user: 'u',
      model: 'grok-imagine-video',
      prompt: 'p',
      video: { url: LINK },
    });
    // The frame wins over the resolution it was priced at; unknown, the entry's highest.
    expect(settle({}, { size: '1280x720', resolution: null }).resolution).toBe('720p');
    expect(settle({}, { resolution: null }).resolution).toBe('720p');
  });

  it('an extension adds 1 to 10 s (default 6) to a source of 2 to 30 s: /v1/videos/extensions with its duration', () => {
    const settled = settle({ duration: 4 }, { mode: 'video-extend', seconds: 30 });
    expect(settled.seconds).toBe(4);
    expect(xaiCreatePath(settled.request)).toBe('/v1/videos/extensions');
    expect(buildXaiBody(settled.request, 'grok-imagine-video', undefined)).toEqual({
      model: 'grok-imagine-video',
      prompt: 'p',
      video: { url: LINK },
      duration: 4,
    });
    expect(settle({}, { mode: 'video-extend' }).seconds).toBe(6);
  });

  it.each([
    ['an edit given a length', { duration: 5 }, {}, false, 'duration'],
    ['an edit of a source longer than the model makes', {}, { seconds: 16 }, false, 'metadata.source_task_id'],
    ['an extension of 11 s', { duration: 11 }, { mode: 'video-extend' as const }, false, 'duration'],
    ['an extension of a 1 s source', {}, { mode: 'video-extend' as const, seconds: 1, field: 'id' }, false, 'id'],
    ['a first frame', {}, {}, true, 'input_reference'],
    ['a resolution', { resolution: '720p' }, {}, false, 'resolution'],
    ['an aspect ratio', { aspect_ratio: '16:9' }, { mode: 'video-extend' as const }, false, 'aspect_ratio'],
    ['audio', { audio: true }, {}, false, 'audio'],
    ['the video in metadata', { metadata: { video: { url: 'https://x' } } }, {}, false, 'metadata.video'],
  ])('refuses %s, naming the field', (_name, body, from, hasImage, field) => {
    expect(refusedField(() => settle(body, from, hasImage))).toBe(field);
  });
});
