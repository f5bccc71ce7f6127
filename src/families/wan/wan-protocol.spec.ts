import type { CatalogEntry } from '../../catalog/catalog-entry';
import { validBody } from '../../common/http/validation';
import { builtinCatalogModel, refusedField } from '../shared/family.spec-support';
import { WAN_BUILTIN_ENTRIES } from './wan-catalog';
import { mapWanError } from './wan-errors';
import { wanProtocolOf } from './wan-models';
import { buildWanBody, WanTaskRequest, wanTaskIdOf } from './wan-protocol';
import { mapWanQuery } from './wan-query-mapping';
import { WanVideoRequestDto } from './wan-request.dto';
import { settleWanRequest } from './wan-task-rules';
import { WAN_FAMILY } from './wan.family';

/** A builtin model's entry and route (with changes an operator made), and a body settled against it. */
const settle = (model: string, body: Partial<WanVideoRequestDto>, changes: Partial<CatalogEntry> = {}) =>
  settleWanRequest(model, builtinCatalogModel(WAN_BUILTIN_ENTRIES, model, changes), { model, ...body }, false);
/** The create body a settled request makes (images as their URLs). */
const wire = (model: string, body: Partial<WanVideoRequestDto>) => {
  const { protocol, mode, input, extra, frames } = settle(model, body);
  const images: WanTaskRequest['images'] = {};
  if (frames.first) images[frames.first] = { url: body.input_reference! };
  if (frames.last) images[frames.last] = { url: body.last_frame! };
  return buildWanBody({ protocol, mode, input, images, extra }, model, (image) => ('url' in image ? image.url : 'staged'));
};
const FIRST = 'https://cdn.example.com/first.png';
const LAST = 'https://cdn.example.com/last.png';

describe('Wan request rules and create bodies, by wire', () => {
  it('wan2.6-t2v (legacy): size from resolution and aspect ratio, audio sent as billed, metadata into parameters', () => {
    expect(
      wire('wan2.6-t2v', { prompt: 'a fox', aspect_ratio: '9:16', negative_prompt: 'blur', seed: 7, metadata: { shot_type: 'multi' } }),
    ).toEqual({
      model: 'wan2.6-t2v',
      input: { prompt: 'a fox', negative_prompt: 'blur' },
      parameters: { shot_type: 'multi', seed: 7, duration: 5, audio: false, size: '720*1280' },
    });
    expect(wire('wan2.6-t2v', { prompt: 'a fox', size: '1920x1080', duration: 10, audio: true }).parameters).toEqual({
      duration: 10,
      audio: true,
      size: '1920*1080',
    });
    expect(settle('wan2.6-t2v', { prompt: 'p', audio: true }).quote).toEqual({
      model: 'wan2.6-t2v',
      resolution: '720p',
      seconds: 5,
      audio: true,
    });
  });

  it('wan2.6-i2v (legacy): img_url and an upper-case resolution, no ratio', () => {
    expect(wire('wan2.6-i2v', { input_reference: FIRST, resolution: '1080p', duration: 15 })).toEqual({
      model: 'wan2.6-i2v',
      input: { img_url: FIRST },
      parameters: { duration: 15, resolution: '1080P', audio: false },
    });
  });

  it('wan2.7 (media): ratio for text, media[] of first and last frames, no audio switch (always on, billed so)', () => {
    expect(wire('wan2.7-t2v', { prompt: 'a lighthouse', aspect_ratio: '1:1', duration: 2 })).toEqual({
      model: 'wan2.7-t2v',
      input: { prompt: 'a lighthouse' },
      parameters: { duration: 2, ratio: '1:1', resolution: '720P' },
    });
    expect(wire('wan2.7-i2v', { prompt: 'open', input_reference: FIRST, last_frame: LAST })).toEqual({
      model: 'wan2.7-i2v',
      input: {
        prompt: 'open',
        media: [
          { type: 'first_frame', url: FIRST },
          { type: 'last_frame', url: LAST },
        ],
      },
      parameters: { duration: 5, resolution: '720P' },
    });
    expect(settle('wan2.7-i2v', { input_reference: FIRST, last_frame: LAST }).mode).toBe('first-last-frame');
    expect(settle('wan2.7-t2v', { prompt: 'p', audio: true }).quote.audio).toBe(true);
  });

  it.each([
    ['an image on a text-to-video model', 'wan2.6-t2v', { prompt: 'p', input_reference: FIRST }, 'input_reference'],
    ['no image on an image-to-video model', 'wan2.7-i2v', { prompt: 'p' }, 'input_reference'],
    ['no prompt for text-to-video', 'wan2.7-t2v', {}, 'prompt'],
    ['7 s on 2.6 (5, 10 or 15)', 'wan2.6-t2v', { prompt: 'p', duration: 7 }, 'duration'],
    ['16 s on 2.7', 'wan2.7-t2v', { prompt: 'p', duration: 16 }, 'duration'],
    ['480p (not offered)', 'wan2.7-t2v', { prompt: 'p', resolution: '480p' }, 'resolution'],
    ['an aspect ratio not offered', 'wan2.6-t2v', { prompt: 'p', aspect_ratio: '21:9' }, 'aspect_ratio'],
    ['aspect_ratio with a first frame', 'wan2.6-i2v', { input_reference: FIRST, aspect_ratio: '16:9' }, 'aspect_ratio'],
    ['a size of no offered shape', 'wan2.6-t2v', { prompt: 'p', size: '1000x720' }, 'size'],
    ['last_frame on 2.6 (no first-last-frame)', 'wan2.6-i2v', { input_reference: FIRST, last_frame: LAST }, 'last_frame'],
    ['last_frame without a first frame', 'wan2.7-i2v', { last_frame: LAST }, 'last_frame'],
    ['audio off on 2.7 (always made)', 'wan2.7-t2v', { prompt: 'p', audio: false }, 'audio'],
    ['a parameter the gateway sets, in metadata', 'wan2.7-t2v', { prompt: 'p', metadata: { ratio: '1:1' } }, 'metadata.ratio'],
    ['a prompt over 1500 on 2.6', 'wan2.6-t2v', { prompt: 'x'.repeat(1501) }, 'prompt'],
  ])('refuses %s, naming the field', (_name, model, body, field) => {
    expect(refusedField(() => settle(model, body as Partial<WanVideoRequestDto>))).toBe(field);
  });

  it('the schema: seed up to 2147483647, negative_prompt up to 500 characters', async () => {
    await expect(validBody(WanVideoRequestDto, { model: 'wan2.7-t2v', seed: 2147483648 })).rejects.toMatchObject({
      options: { param: 'seed' },
    });
    await expect(validBody(WanVideoRequestDto, { model: 'wan2.7-t2v', negative_prompt: 'x'.repeat(501) })).rejects.toMatchObject({
      options: { param: 'negative_prompt' },
    });
    await expect(validBody(WanVideoRequestDto, { model: 'wan2.7-t2v', seed: 2147483647 })).resolves.toMatchObject({ seed: 2147483647 });
  });

  it('the wire by upstream id, or by the route option protocol', () => {
    expect(
      ['wan2.6-t2v', 'wan2.5-i2v-preview', 'wanx2.1-t2v-turbo', 'wan2.7-i2v', 'happyhorse-1.0-t2v', 'wan3.0-video'].map(wanProtocolOf),
    ).toEqual(['legacy', 'legacy', 'legacy', 'media', 'media', 'media']);
    const route = { platform: 'wan', upstreamModel: 'wan2.7-t2v', options: { protocol: 'legacy' } };
    expect(settle('wan2.7-t2v', { prompt: 'p' }).protocol).toBe('media');
    expect(settle('wan2.7-t2v', { prompt: 'p' }, { routes: [route] }).protocol).toBe('legacy');
    expect(WAN_FAMILY.checkRouteOptions!({ protocol: 'soap' })).toEqual({
      field: 'protocol',
      message: 'protocol must be "legacy" or "media"',
    });
    expect(WAN_FAMILY.checkRouteOptions!({ input_map: {} })).toMatchObject({ field: 'input_map' });
  });
});

describe('Wan task answers', () => {
  const answer = (output: object, usage?: object) => ({
    request_id: 'r',
    output: { task_id: 't', ...output },
    ...(usage ? { usage } : {}),
  });
  const LINK = 'https://dashscope-result.oss.example.com/v.mp4?Expires=1';

  it.each([
    ['PENDING', answer({ task_status: 'PENDING' }), { state: 'queued', progress: 0 }],
    ['RUNNING', answer({ task_status: 'RUNNING' }), { state: 'running' }],
    [
      'SUCCEEDED',
      answer({ task_status: 'SUCCEEDED', video_url: LINK }, { duration: 10, video_count: 1, SR: 720, size: '1280*720' }),
      { state: 'succeeded', videoUrl: LINK, outputSize: '1280x720', providerUsage: { unit: 'video_seconds', amount: 10 } },
    ],
    [
      'SUCCEEDED without a link',
      answer({ task_status: 'SUCCEEDED' }),
      { state: 'failed', failReason: 'generation failed: the provider gave no usable video link' },
    ],
    [
      'FAILED moderation',
      answer({ task_status: 'FAILED', code: 'DataInspectionFailed', message: 'at http://10.0.0.5' }),
      { state: 'failed', failReason: 'content moderation failed: DataInspectionFailed' },
    ],
    [
      'FAILED internal',
      answer({ task_status: 'FAILED', code: 'InternalError.Algo' }),
      { state: 'failed', failReason: 'generation failed: InternalError.Algo: provider internal error' },
    ],
    ['CANCELED (an end)', answer({ task_status: 'CANCELED' }), { state: 'failed', cancelledUpstream: true }],
    [
      'UNKNOWN (an end)',
      answer({ task_status: 'UNKNOWN' }),
      { state: 'failed', failReason: expect.stringMatching(/^upstream timeout: .*UNKNOWN/) },
    ],
    [
      'wan2.1 usage keys',
      answer({ task_status: 'RUNNING' }, { video_duration: 5, video_ratio: '16:9' }),
      { providerUsage: { unit: 'video_seconds', amount: 5 } },
    ],
  ])('%s', (_name, body, expected) => {
    const outcome = mapWanQuery(body, { allowPrivate: false });
    expect(outcome).toMatchObject(expected);
    expect(JSON.stringify(outcome.raw)).not.toMatch(/10\.0\.0\.5|Expires/);
  });

  it('any other status is asked again (transient), never an end', () => {
    expect(() => mapWanQuery(answer({ task_status: 'SUSPENDED' }))).toThrow(expect.objectContaining({ kind: 'transient' }));
  });

  it('maps DashScope errors by code and status, naming the code only', () => {
    const table: Array<[number, string, string]> = [
      [401, 'InvalidApiKey', 'channel'],
      [403, 'AccessDenied', 'channel'],
      [400, 'Arrearage', 'channel'],
      [404, 'ModelNotFound', 'channel'],
      [400, 'DataInspectionFailed', 'moderation'],
      [400, 'InvalidParameter.DataInspection', 'moderation'],
      [429, 'Throttling.RateQuota', 'backpressure'],
      [400, 'InvalidParameter', 'invalid_input'],
      [500, 'InternalError', 'transient'],
    ];
    const mapped = table.map(([status, code]) => mapWanError(status, { code, message: 'see http://10.0.0.9' }, undefined, 0));
    expect(mapped.map((error) => [error.details.httpStatus, error.details.upstreamCode, error.kind])).toEqual(table);
    expect(mapped.map((error) => error.message).join()).not.toContain('10.0.0.9');
  });

  it('reads the create answer: output.task_id', () => {
    expect(wanTaskIdOf({ output: { task_id: '0385dc79-5ff8-4d82-bcb6-5d1a3c07a1c2', task_status: 'PENDING' }, request_id: 'r' })).toBe(
      '0385dc79-5ff8-4d82-bcb6-5d1a3c07a1c2',
    );
    expect(wanTaskIdOf({ code: 'InvalidParameter' })).toBeUndefined();
  });
});
