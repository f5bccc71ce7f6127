import { mapOpenAiError } from './openai-errors';
import { mapOpenAiVideo } from './openai-query-mapping';

const CONTENT = 'https://upstream.example.com/v1/videos/video_1/content';
const policy = { allowPrivate: false, trustedHosts: ['upstream.example.com'] };

describe('family O protocol mapping', () => {
  it('maps the video statuses; completed downloads from the content path', () => {
    expect(mapOpenAiVideo({ status: 'queued' }, CONTENT, policy)).toMatchObject({ state: 'queued', progress: 0 });
    expect(mapOpenAiVideo({ status: 'in_progress', progress: 41.6 }, CONTENT, policy)).toMatchObject({ state: 'running', progress: 42 });
    expect(mapOpenAiVideo({ status: 'completed', size: '1280x720' }, CONTENT, policy)).toMatchObject({
      state: 'succeeded',
      videoUrl: CONTENT,
      outputSize: '1280x720',
    });
    expect(
      mapOpenAiVideo({ status: 'failed', error: { code: 'moderation_blocked', message: 'see http://10.0.0.1' } }, CONTENT, policy),
    ).toMatchObject({
      state: 'failed',
      failReason: 'content moderation failed: moderation_blocked',
      raw: { status: 'failed', error: { code: 'moderation_blocked' } },
    });
  });

  it('treats an unknown status as transient', () => {
    expect(() => mapOpenAiVideo({ status: 'archiving' }, CONTENT, policy)).toThrow(expect.objectContaining({ kind: 'transient' }));
  });

  it('maps errors by status and code, never by message', () => {
    const body = (code: string | null, param: string | null = null) => ({
      error: { message: 'key sk-secret at http://10.0.0.1', type: 'invalid_request_error', param, code },
    });
    expect(mapOpenAiError(400, body('invalid_value', 'seconds'), undefined, 0)).toMatchObject({
      kind: 'invalid_input',
      message: 'invalid_value: invalid value (param: seconds)',
    });
    expect(mapOpenAiError(400, body('moderation_blocked'), undefined, 0)).toMatchObject({
      kind: 'invalid_input',
      message: expect.stringMatching(/^content moderation failed/),
    });
    expect(mapOpenAiError(401, body('invalid_api_key'), undefined, 0).kind).toBe('channel');
    expect(mapOpenAiError(429, body('insufficient_quota'), undefined, 0).kind).toBe('channel');
    expect(mapOpenAiError(429, body('rate_limit_exceeded'), '12', 0)).toMatchObject({
      kind: 'backpressure',
      details: { retryAfterSeconds: 12 },
    });
    expect(mapOpenAiError(503, undefined, undefined, 0)).toMatchObject({ kind: 'transient', message: 'provider error (HTTP 503)' });
  });
});
