import { parseRetryAfter } from '../../upstream/bearer-json-task-api';
import { mapBetaError } from './beta-errors';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const kindOf = (status: number, code?: string) => mapBetaError(status, code ? { code, message: 'm' } : undefined, undefined, NOW).kind;

describe('family B error mapping', () => {
  it.each([
    [400, 'InvalidParameter', 'invalid_input'],
    [400, 'BadRequest.EmptyInput', 'invalid_input'],
    [400, 'InvalidURL', 'invalid_input'],
    [400, 'UnsupportedOperation', 'invalid_input'],
    [400, 'DataInspectionFailed', 'invalid_input'],
    [400, 'InvalidParameter.DataInspection', 'invalid_input'],
    [400, 'Arrearage', 'channel'],
    [401, 'InvalidApiKey', 'channel'],
    [403, 'AccessDenied', 'channel'],
    [403, 'AccessDenied.Unpurchased', 'channel'],
    [429, 'Throttling', 'backpressure'],
    [429, 'Throttling.RateQuota', 'backpressure'],
    [404, undefined, 'channel'],
    [500, 'InternalError', 'transient'],
    [503, undefined, 'transient'],
  ])('HTTP %s %s -> %s', (status, code, kind) => expect(kindOf(status, code)).toBe(kind));

  it('names the code with its documented reason, never the message, and moderation as such', () => {
    expect(mapBetaError(400, { code: 'InvalidParameter', message: 'bad size' }, undefined, NOW).message).toBe(
      'InvalidParameter: invalid parameter',
    );
    expect(mapBetaError(400, { code: 'DataInspectionFailed', message: 'nope' }, undefined, NOW).message).toBe(
      'content moderation failed: DataInspectionFailed: the input may contain inappropriate content',
    );
    expect(mapBetaError(400, { code: 'Brand.NewCode', message: 'see http://10.0.0.1/x' }, undefined, NOW).message).toBe(
      'Brand.NewCode: the provider refused the input',
    );
    expect(mapBetaError(400, { code: 'key sk-abc at http://10.0.0.1', message: 'm' }, undefined, NOW)).toMatchObject({
      message: 'the provider refused the input (HTTP 400)',
      details: { upstreamCode: undefined },
    });
    expect(mapBetaError(502, undefined, undefined, NOW).message).toBe('provider error (HTTP 502)');
  });

  it('carries Retry-After on throttling, 10 s when the provider sends none', () => {
    expect(mapBetaError(429, { code: 'Throttling' }, '7', NOW).details.retryAfterSeconds).toBe(7);
    expect(mapBetaError(429, { code: 'Throttling' }, undefined, NOW).details.retryAfterSeconds).toBe(10);
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:30 GMT', NOW)).toBe(30);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });
});
