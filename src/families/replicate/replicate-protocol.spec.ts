import { mapReplicateError } from './replicate-errors';
import { REPLICATE_FAMILY } from './replicate.family';
import { mapReplicatePrediction, replicateCreate, replicateFailReason, replicateModelOf } from './replicate-protocol';

const policy = { allowPrivate: false };
const OUTPUT = 'https://replicate.delivery/xezq/abc/tmp.mp4';
const VERSION = 'a'.repeat(64);

describe('Replicate protocol, from bytes', () => {
  it('creates by model (its latest version) or by version, as replicate-javascript does', () => {
    expect(replicateModelOf('kwaivgi/kling-v2.5-turbo-pro')).toEqual({ owner: 'kwaivgi', name: 'kling-v2.5-turbo-pro' });
    expect(replicateModelOf(`stability-ai/svd:${VERSION}`)).toEqual({ owner: 'stability-ai', name: 'svd', version: VERSION });
    expect(replicateModelOf('just-a-name')).toBeNull();
    expect(replicateModelOf('a/b/c')).toBeNull();
    expect(replicateModelOf('a/b:not hex!')).toBeNull();
    expect(replicateCreate({ owner: 'o', name: 'n' }, { prompt: 'p' })).toEqual({
      path: '/v1/models/o/n/predictions',
      body: { input: { prompt: 'p' } },
    });
    expect(replicateCreate({ owner: 'o', name: 'n', version: VERSION }, { prompt: 'p' })).toEqual({
      path: '/v1/predictions',
      body: { version: VERSION, input: { prompt: 'p' } },
    });
  });

  it('maps the statuses; succeeded reads the output path (a URI or the first of a list) and reports predict_time', () => {
    expect(mapReplicatePrediction({ id: 'p', status: 'starting' }, 'output', policy)).toMatchObject({ state: 'queued', progress: 0 });
    expect(mapReplicatePrediction({ status: 'processing', metrics: {} }, 'output', policy)).toMatchObject({ state: 'running' });
    const done = mapReplicatePrediction(
      {
        id: 'p',
        status: 'succeeded',
        output: OUTPUT,
        input: { prompt: 'secret' },
        logs: 'x',
        metrics: { predict_time: 41.5, total_time: 50 },
      },
      'output',
      policy,
    );
    expect(done).toEqual({
      state: 'succeeded',
      progress: 100,
      videoUrl: OUTPUT,
      raw: { id: 'p', status: 'succeeded', predict_time: 41.5, total_time: 50 },
      providerUsage: { unit: 'predict_seconds', amount: 41.5 },
    });
    expect(mapReplicatePrediction({ status: 'succeeded', output: [OUTPUT, 'https://x/2.mp4'] }, 'output', policy)).toMatchObject({
      videoUrl: OUTPUT,
    });
    expect(mapReplicatePrediction({ status: 'succeeded', output: { video: OUTPUT } }, 'output.video', policy)).toMatchObject({
      videoUrl: OUTPUT,
    });
    expect(mapReplicatePrediction({ status: 'succeeded', output: null, data_removed: true }, 'output', policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the provider returned no usable video',
    });
  });

  it('failed is moderation when the error says a content filter refused, else a generation failure; its text is never kept', () => {
    const moderated = mapReplicatePrediction(
      { status: 'failed', error: 'The input or output was flagged as sensitive. Please try again with different inputs. (E005)' },
      'output',
      policy,
    );
    expect(moderated).toMatchObject({ state: 'failed', failReason: 'content moderation failed' });
    expect(JSON.stringify(moderated)).not.toContain('sensitive');
    expect(replicateFailReason('NSFW content detected')).toBe('content moderation failed');
    expect(replicateFailReason('CUDA out of memory at 10.0.0.7')).toBe('generation failed: the prediction failed');
    expect(replicateFailReason(null)).toBe('generation failed: the prediction failed');
    expect(mapReplicatePrediction({ status: 'canceled' }, 'output', policy)).toMatchObject({ state: 'failed', cancelledUpstream: true });
    expect(mapReplicatePrediction({ status: 'aborted' }, 'output', policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: aborted: the prediction did not start before its deadline',
    });
    expect(() => mapReplicatePrediction({ status: 'queued' }, 'output', policy)).toThrow('unexpected status');
  });

  it("maps Replicate's errors: token, credit and a version it may not run to the channel, validation to input, 429 with Retry-After", () => {
    expect(mapReplicateError(401, { title: 'Unauthenticated' }, undefined, 0)).toMatchObject({ kind: 'channel' });
    expect(mapReplicateError(402, { title: 'Insufficient credit' }, undefined, 0)).toMatchObject({
      kind: 'channel',
      details: { upstreamCode: 'insufficient_credit' },
    });
    expect(mapReplicateError(422, { title: 'Invalid version or not permitted' }, undefined, 0)).toMatchObject({ kind: 'channel' });
    expect(mapReplicateError(404, { detail: 'Not found.' }, undefined, 0)).toMatchObject({ kind: 'channel' });
    expect(
      mapReplicateError(422, { title: 'Input validation failed', invalid_fields: [{ type: 'enum', field: 'duration' }] }, undefined, 0),
    ).toMatchObject({ kind: 'invalid_input', message: 'enum: the provider refused the input (param: duration)' });
    expect(mapReplicateError(429, { detail: 'throttled' }, '30', 0)).toMatchObject({
      kind: 'backpressure',
      details: { retryAfterSeconds: 30 },
    });
    expect(mapReplicateError(500, { detail: 'Internal server error' }, undefined, 0)).toMatchObject({ kind: 'transient' });
  });

  it("its builtin entry's route passes its own route check", () => {
    for (const entry of REPLICATE_FAMILY.builtinEntries) {
      expect({ id: entry.id, problem: REPLICATE_FAMILY.checkRouteOptions!(entry.routes[0].options ?? {}) }).toEqual({
        id: entry.id,
        problem: null,
      });
      expect(replicateModelOf(entry.routes[0].upstreamModel as string)).not.toBeNull();
    }
  });
});
