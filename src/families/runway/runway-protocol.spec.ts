import { mapRunwayError } from './runway-errors';
import { buildRunwayBody, runwaySubmitPath } from './runway-protocol';
import { mapRunwayTask } from './runway-task-mapping';

const OUTPUT = 'https://dnznrvs05pmza.cloudfront.net/a/video.mp4?_jwt=abc';
const policy = { allowPrivate: false };

describe('Runway protocol mapping', () => {
  it('maps the task statuses; SUCCEEDED downloads output[0]; the signed link is not kept in the raw answer', () => {
    expect(mapRunwayTask({ status: 'PENDING' }, policy)).toMatchObject({ state: 'queued', progress: 0 });
    expect(mapRunwayTask({ status: 'THROTTLED' }, policy)).toMatchObject({ state: 'queued' });
    expect(mapRunwayTask({ status: 'RUNNING', progress: 0.456 }, policy)).toMatchObject({ state: 'running', progress: 46 });
    const done = mapRunwayTask({ id: 't', status: 'SUCCEEDED', output: [OUTPUT] }, policy);
    expect(done).toMatchObject({ state: 'succeeded', progress: 100, videoUrl: OUTPUT });
    expect(JSON.stringify(done.raw)).not.toContain('_jwt');
    expect(mapRunwayTask({ status: 'SUCCEEDED', output: [] }, policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the provider returned no usable video',
    });
    expect(mapRunwayTask({ status: 'CANCELLED' }, policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the task was cancelled upstream',
    });
  });

  it.each([
    ['SAFETY.INPUT.TEXT', 'content moderation failed: SAFETY.INPUT.TEXT'],
    ['SAFETY.OUTPUT.VIDEO', 'content moderation failed: SAFETY.OUTPUT.VIDEO'],
    ['INPUT_PREPROCESSING.SAFETY.TEXT', 'content moderation failed: INPUT_PREPROCESSING.SAFETY.TEXT'],
    ['ASSET.INVALID', "generation failed: ASSET.INVALID: an input asset does not meet the provider's spec"],
    [
      'INTERNAL.BAD_OUTPUT.CODE01',
      'generation failed: INTERNAL.BAD_OUTPUT.CODE01: the provider rejected its own output (often text overlaid in the input)',
    ],
    ['THIRD_PARTY.UNAVAILABLE', 'generation failed: THIRD_PARTY.UNAVAILABLE: a service the provider relies on is unavailable'],
    ['see http://10.0.0.1', 'generation failed'],
  ])("a FAILED task with %s fails as %s, never with Runway's text", (failureCode, reason) => {
    const outcome = mapRunwayTask({ status: 'FAILED', failure: 'secret text at http://10.0.0.2', failureCode }, policy);
    expect(outcome).toMatchObject({ state: 'failed', failReason: reason });
    expect(JSON.stringify(outcome)).not.toContain('10.0.0.2');
  });

  it('treats an unknown status as transient', () => {
    expect(() => mapRunwayTask({ status: 'ARCHIVING' }, policy)).toThrow(expect.objectContaining({ kind: 'transient' }));
  });

  it('maps errors: key and credits are the channel, issues name code and field only, 429 back-pressure, 5xx transient', () => {
    expect(mapRunwayError(401, { error: 'bad key key_123' }, undefined, 0).kind).toBe('channel');
    expect(mapRunwayError(400, { error: 'You do not have enough credits to run this task.' }, undefined, 0)).toMatchObject({
      kind: 'channel',
      message: 'the provider account has no credits left',
    });
    const issue = mapRunwayError(
      400,
      {
        error: 'Validation of body failed',
        issues: [{ code: 'invalid_type', path: ['promptImage', 0, 'uri'], message: 'at http://10.0.0.1' }],
      },
      undefined,
      0,
    );
    expect(issue).toMatchObject({
      kind: 'invalid_input',
      message: 'invalid_type: the provider refused the input (param: promptImage[0].uri)',
    });
    expect(mapRunwayError(400, { error: 'Only HTTPS URLs are allowed' }, undefined, 0)).toMatchObject({
      kind: 'invalid_input',
      message: 'the provider refused the input (HTTP 400)',
    });
    expect(mapRunwayError(429, { error: 'slow' }, '12', 0)).toMatchObject({ kind: 'backpressure', details: { retryAfterSeconds: 12 } });
    expect(mapRunwayError(429, undefined, undefined, 0)).toMatchObject({ details: { retryAfterSeconds: 10 } });
    expect(mapRunwayError(502, undefined, undefined, 0)).toMatchObject({ kind: 'transient', message: 'provider error (HTTP 502)' });
  });

  it("builds the create body: one first frame as a string, first and last as positions, metadata first so the gateway's fields win", () => {
    const uri = (ref: { url: string } | { staged: string }) => ('url' in ref ? ref.url : `data:${ref.staged}`);
    const base = { mode: 'image' as const, ratio: '1280:720', duration: 8, extra: { audio: false } };
    expect(buildRunwayBody({ ...base, firstFrame: { url: 'https://a' } }, 'veo3.1', uri)).toEqual({
      audio: false,
      model: 'veo3.1',
      ratio: '1280:720',
      duration: 8,
      promptImage: 'https://a',
    });
    expect(
      buildRunwayBody({ ...base, promptText: 'p', seed: 1, firstFrame: { url: 'https://a' }, lastFrame: { staged: 'x' } }, 'veo3.1', uri)
        .promptImage,
    ).toEqual([
      { uri: 'https://a', position: 'first' },
      { uri: 'data:x', position: 'last' },
    ]);
  });

  it('builds a video-to-video body: the source as videoUri, the prompt and seed; no ratio or duration (the source decides)', () => {
    const request = {
      mode: 'video' as const,
      ratio: '1280:720',
      duration: 6,
      videoUri: 'https://gw/v',
      promptText: 'p',
      seed: 3,
      extra: {},
    };
    expect(runwaySubmitPath(request)).toBe('/v1/video_to_video');
    expect(buildRunwayBody(request, 'aleph2', () => '')).toEqual({ model: 'aleph2', videoUri: 'https://gw/v', promptText: 'p', seed: 3 });
  });
});
