import { UpstreamError } from '../../upstream/upstream-adapter';
import { FAL_MODELS } from './fal-catalog';
import { falFailedResult, mapFalError } from './fal-errors';
import { FAL_FAMILY } from './fal.family';
import {
  falAuthorization,
  falBillableUnits,
  falEndpointOf,
  falStatusPath,
  falSubmitPath,
  mapFalResult,
  readFalStatus,
} from './fal-protocol';

const policy = { allowPrivate: false };
const VIDEO = 'https://v3.fal.media/files/rabbit/abc.mp4';

describe('fal protocol, from bytes', () => {
  it('routes the submit on the full endpoint id and the rest on the app (owner/alias; three segments in a namespace)', () => {
    const kling = falEndpointOf('fal-ai/kling-video/v2.5-turbo/pro/text-to-video')!;
    expect(kling).toEqual({ id: 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video', app: 'fal-ai/kling-video' });
    expect(falSubmitPath(kling)).toBe('/fal-ai/kling-video/v2.5-turbo/pro/text-to-video');
    expect(falStatusPath(kling, 'req 1')).toBe('/fal-ai/kling-video/requests/req%201/status');
    expect(falEndpointOf('fal-ai/veo3.1')).toEqual({ id: 'fal-ai/veo3.1', app: 'fal-ai/veo3.1' });
    expect(falEndpointOf('workflows/acme/my-flow/run')).toEqual({ id: 'workflows/acme/my-flow/run', app: 'workflows/acme/my-flow' });
    expect(falEndpointOf('12345-my-app')).toEqual({ id: '12345/my-app', app: '12345/my-app' });
    expect(falEndpointOf('just-one')).toBeNull();
    expect(falEndpointOf('workflows/acme')).toBeNull();
    expect(falEndpointOf('fal-ai/../admin')).toBeNull();
    expect(falEndpointOf('fal-ai//x')).toBeNull();
  });

  it('sends the key as `Key <key_id>:<key_secret>`, and no other shape', () => {
    expect(falAuthorization('abc:def')).toBe('Key abc:def');
    expect(falAuthorization('abcdef')).toBeNull();
    expect(falAuthorization('a:b:c')).toBeNull();
    expect(falAuthorization(':b')).toBeNull();
    expect(falAuthorization('a: b')).toBeNull();
  });

  it('reads the queue status: IN_QUEUE queued, IN_PROGRESS running, COMPLETED for the result to decide; anything else is asked again', () => {
    expect(readFalStatus({ status: 'IN_QUEUE', queue_position: 3, request_id: 'r', status_url: 'https://queue.fal.run/x' })).toEqual({
      state: 'queued',
      raw: { request_id: 'r', status: 'IN_QUEUE', queue_position: 3 },
    });
    expect(readFalStatus({ status: 'IN_PROGRESS', logs: [{ message: 'secret log' }] })).toEqual({
      state: 'running',
      raw: { status: 'IN_PROGRESS' },
    });
    expect(
      readFalStatus({
        status: 'COMPLETED',
        metrics: { inference_time: 4.5 },
        error: 'boom at 10.0.0.1',
        error_type: 'runner_server_error',
      }),
    ).toEqual({
      completed: true,
      raw: { status: 'COMPLETED', inference_time: 4.5, error_type: 'runner_server_error' },
    });
    expect(() => readFalStatus({ status: 'FAILED' })).toThrow(UpstreamError);
  });

  it('a result: the video at the route output path with the billable units; no usable video is a failure', () => {
    expect(mapFalResult({ video: { url: VIDEO } }, 'video.url', '5', { status: 'COMPLETED' }, policy)).toEqual({
      state: 'succeeded',
      progress: 100,
      videoUrl: VIDEO,
      raw: { status: 'COMPLETED' },
      providerUsage: { unit: 'fal_billable_units', amount: 5 },
    });
    expect(mapFalResult({ videos: [{ url: VIDEO }] }, 'videos[0].url', undefined, null, policy)).toMatchObject({
      state: 'succeeded',
      videoUrl: VIDEO,
    });
    expect(mapFalResult({ video: { url: 'http://10.0.0.1/a.mp4' } }, 'video.url', '5', null, policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the provider returned no usable video',
    });
    expect(falBillableUnits('2.5')).toEqual({ unit: 'fal_billable_units', amount: 2.5 });
    expect(falBillableUnits('lots')).toBeUndefined();
    expect(falBillableUnits(['10'])).toEqual({ unit: 'fal_billable_units', amount: 10 });
  });

  it("maps fal's errors: key and lock to the channel, content_policy_violation to moderation, validation to input, 429 with Retry-After", () => {
    expect(mapFalError(401, { detail: 'No user found for Key ID and Secret' }, undefined, 0)).toMatchObject({ kind: 'channel' });
    expect(mapFalError(403, { detail: 'User is locked. Reason: Exhausted balance.' }, undefined, 0)).toMatchObject({
      kind: 'channel',
      details: { upstreamCode: 'user_locked' },
    });
    expect(mapFalError(404, { detail: 'Application not found' }, undefined, 0)).toMatchObject({ kind: 'channel' });
    const moderation = mapFalError(
      422,
      { detail: [{ loc: ['body', 'prompt'], msg: 'flagged', type: 'content_policy_violation' }] },
      undefined,
      0,
    );
    expect(moderation).toMatchObject({ kind: 'moderation', message: 'content moderation failed: content_policy_violation' });
    const invalid = mapFalError(
      422,
      { detail: [{ loc: ['body', 'duration'], msg: 'at http://10.0.0.9', type: 'literal_error' }] },
      undefined,
      0,
    );
    expect(invalid).toMatchObject({ kind: 'invalid_input', message: 'literal_error: the provider refused the input (param: duration)' });
    expect(mapFalError(429, {}, '7', 0)).toMatchObject({ kind: 'backpressure', details: { retryAfterSeconds: 7 } });
    expect(mapFalError(400, { detail: 'Request is still in progress' }, undefined, 0)).toMatchObject({
      kind: 'transient',
      details: { upstreamCode: 'result_not_ready' },
    });
    expect(mapFalError(504, { detail: 'timed out', error_type: 'request_timeout' }, undefined, 0)).toMatchObject({
      kind: 'transient',
      message: 'request_timeout: the request timed out at the provider',
    });
  });

  it('a failed result ends the task: moderation, input, or a stored request error (a cancel upstream says so); others are asked again', () => {
    const result = (status: number, body: object) => falFailedResult(mapFalError(status, body, undefined, 0), undefined, null);
    expect(result(422, { detail: [{ type: 'content_policy_violation' }] })).toEqual({
      state: 'failed',
      failReason: 'content moderation failed: content_policy_violation',
      raw: null,
    });
    expect(result(422, { detail: [{ type: 'missing', loc: ['body', 'image_url'] }] })).toMatchObject({
      failReason: 'generation failed: missing: the provider refused the input (param: image_url)',
    });
    expect(result(500, { detail: 'x', error_type: 'runner_server_error' })).toMatchObject({
      failReason: "generation failed: runner_server_error: the provider's runner failed",
    });
    expect(result(499, { detail: 'x', error_type: 'client_cancelled' })).toMatchObject({ cancelledUpstream: true });
    expect(result(502, { detail: 'bad gateway' })).toBeNull();
    expect(result(400, { detail: 'Request is still in progress' })).toBeNull();
    expect(result(401, {})).toBeNull();
    expect(falFailedResult(mapFalError(500, {}, undefined, 0), 'startup_timeout', null)).toMatchObject({
      failReason: "generation failed: startup_timeout: the provider's runner did not start in time",
    });
  });

  it("its builtin entries' routes pass its own route check, and each maps onto its endpoints", () => {
    for (const entry of FAL_FAMILY.builtinEntries) {
      expect({ id: entry.id, problem: FAL_FAMILY.checkRouteOptions!(entry.routes[0].options ?? {}) }).toEqual({
        id: entry.id,
        problem: null,
      });
      const endpoints = Object.values(entry.routes[0].upstreamModel);
      expect(endpoints.every((id) => falEndpointOf(id) !== null)).toBe(true);
    }
    expect(FAL_FAMILY.models).toEqual(FAL_MODELS.map((model) => model.id));
    expect(FAL_FAMILY.builtinEntries.find((entry) => entry.id === 'veo3.1')!.prices).toEqual([
      { resolution: '720p', unit: 'second', duration: 0, price: 2000, audioPrice: 4000 },
      { resolution: '1080p', unit: 'second', duration: 0, price: 2000, audioPrice: 4000 },
    ]);
  });
});
