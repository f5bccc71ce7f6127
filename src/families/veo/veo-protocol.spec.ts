import { mapVeoError } from './veo-errors';
import { mapVeoOperation } from './veo-operation-mapping';
import { buildVeoSubmitBody } from './veo-protocol';

const BASE = 'https://generativelanguage.googleapis.com';
const policy = { allowPrivate: false, trustedHosts: ['generativelanguage.googleapis.com'] };
const NAME = 'models/veo-3.1-generate-preview/operations/t8iue9eni46i';
const google = (code: number, status: string, details?: Array<{ reason?: string; retryDelay?: string }>) => ({
  error: { code, status, message: 'key AIzaSy-secret at http://10.0.0.1', ...(details ? { details } : {}) },
});

describe('Veo protocol', () => {
  it('builds the predictLongRunning body: one instance, gateway parameters over metadata, one sample', () => {
    const image = { bytesBase64Encoded: 'AAAA', mimeType: 'image/png' };
    expect(
      buildVeoSubmitBody(
        {
          prompt: 'p',
          durationSeconds: 6,
          aspectRatio: '9:16',
          resolution: '720p',
          negativePrompt: 'n',
          extraParameters: { personGeneration: 'allow_all' },
        },
        { image, lastFrame: image },
      ),
    ).toEqual({
      instances: [{ prompt: 'p', image, lastFrame: image }],
      parameters: {
        personGeneration: 'allow_all',
        aspectRatio: '9:16',
        durationSeconds: 6,
        resolution: '720p',
        sampleCount: 1,
        negativePrompt: 'n',
      },
    });
  });

  it('maps operations: running, a sample, the RAI filter, an error code; never the provider text', () => {
    expect(mapVeoOperation({ name: NAME }, policy)).toMatchObject({ state: 'running', raw: { name: NAME } });
    expect(mapVeoOperation({ name: NAME, done: false }, policy).state).toBe('running');
    const uri = `${BASE}/v1beta/files/zsmxt6ue9jk1:download?alt=media`;
    const done = mapVeoOperation(
      { name: NAME, done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri } }] } } },
      policy,
    );
    expect(done).toMatchObject({ state: 'succeeded', videoUrl: uri, progress: 100, raw: { name: NAME, done: true, samples: 1 } });
    expect(JSON.stringify(done.raw)).not.toContain('zsmxt6ue9jk1');
    const filtered = mapVeoOperation(
      {
        name: NAME,
        done: true,
        response: { generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['audio issue, see http://x'] } },
      },
      policy,
    );
    expect(filtered).toMatchObject({ state: 'failed', failReason: 'content moderation failed: raiMediaFiltered' });
    expect(JSON.stringify(filtered)).not.toContain('audio issue');
    expect(mapVeoOperation({ name: NAME, done: true, error: { code: 3, message: 'bad at 10.0.0.1' } }, policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: INVALID_ARGUMENT: invalid request',
    });
    expect(mapVeoOperation({ name: NAME, done: true, error: { code: 99 } }, policy).failReason).toBe('generation failed');
    expect(mapVeoOperation({ name: NAME, done: true, response: {} }, policy)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: the provider returned no video',
    });
    // A sample on a host the channel does not trust is not shown (nor fetched with the key).
    expect(
      mapVeoOperation(
        { done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: 'http://10.0.0.1/v.mp4' } }] } } },
        policy,
      ).state,
    ).toBe('failed');
  });

  it('maps Google errors by HTTP status and canonical status, never by message', () => {
    const keyInvalid = mapVeoError(400, google(400, 'INVALID_ARGUMENT', [{ reason: 'API_KEY_INVALID' }]), undefined, 0);
    expect(keyInvalid).toMatchObject({ kind: 'channel', message: 'API_KEY_INVALID: the provider refused the API key' });
    expect(mapVeoError(400, google(400, 'FAILED_PRECONDITION'), undefined, 0).kind).toBe('channel');
    expect(mapVeoError(403, google(403, 'PERMISSION_DENIED'), undefined, 0).kind).toBe('channel');
    expect(mapVeoError(404, google(404, 'NOT_FOUND'), undefined, 0).kind).toBe('channel');
    expect(mapVeoError(400, google(400, 'INVALID_ARGUMENT'), undefined, 0)).toMatchObject({
      kind: 'invalid_input',
      message: 'INVALID_ARGUMENT: invalid request',
    });
    expect(mapVeoError(429, google(429, 'RESOURCE_EXHAUSTED', [{ retryDelay: '31.5s' }]), undefined, 0)).toMatchObject({
      kind: 'backpressure',
      details: { retryAfterSeconds: 32 },
    });
    expect(mapVeoError(429, google(429, 'RESOURCE_EXHAUSTED'), '7', 0).details.retryAfterSeconds).toBe(7);
    expect(mapVeoError(429, undefined, undefined, 0).details.retryAfterSeconds).toBe(10);
    expect(mapVeoError(503, undefined, undefined, 0)).toMatchObject({ kind: 'transient', message: 'provider error (HTTP 503)' });
    for (const error of [keyInvalid, mapVeoError(500, google(500, 'INTERNAL'), undefined, 0)])
      expect(error.message).not.toMatch(/AIza|10\.0\.0\.1/);
  });
});
