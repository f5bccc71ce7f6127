import {
  capStoredResponse,
  codeSummary,
  describeCode,
  describeTransportError,
  providerCode,
  sanitizeProviderText,
  transportErrorMessage,
} from './provider-text';

describe('provider text', () => {
  it('takes a code only when it looks like one', () => {
    expect(providerCode('InvalidParameter.DataInspection')).toBe('InvalidParameter.DataInspection');
    expect(providerCode(' InternalError.Algo ')).toBe('InternalError.Algo');
    for (const odd of ['', 'sk-abc123', 'http://10.0.0.1/x', 'bad code', 'a'.repeat(81), 'K3yW1thD1g1tsAnd8Letters', 'Code12345', 42, null])
      expect(providerCode(odd)).toBeUndefined();
    expect(providerCode('SecretKeyValue', ['SecretKeyValue'])).toBeUndefined();
  });

  it('describes a code by its documented meaning or its longest documented prefix', () => {
    const table = { InvalidParameter: 'invalid parameter', 'InvalidParameter.URL': 'the image cannot be downloaded' };
    expect(describeCode(table, 'InvalidParameter.URL')).toBe('the image cannot be downloaded');
    expect(describeCode(table, 'InvalidParameter.Other.Deep')).toBe('invalid parameter');
    expect(describeCode(table, 'Other')).toBeUndefined();
    expect(codeSummary(table, 'Other', 'the provider refused the input')).toBe('Other: the provider refused the input');
    expect(codeSummary(table, undefined, 'provider error', 502)).toBe('provider error (HTTP 502)');
  });

  it('names transport trouble without the address', () => {
    expect(describeTransportError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' })).toBe('ECONNREFUSED');
    expect(describeTransportError({ code: 'ECONNABORTED', message: 'timeout of 100ms exceeded' })).toBe('timeout');
    expect(describeTransportError({ code: 'ERR_BAD_RESPONSE', message: 'maxContentLength size of 1048576 exceeded' })).toBe(
      'response too large',
    );
    expect(describeTransportError({ code: 'weird code 10.0.0.1' })).toBe('network error');
    expect(transportErrorMessage('family B provider', { message: 'maxContentLength size of 1048576 exceeded' })).toBe(
      'family B provider answered with a body over 1 MiB',
    );
  });

  it('sanitizes free text kept for operators', () => {
    const text =
      'refused key sk-live-abcdef123456 for http://10.9.8.7:8080/internal?token=x via db.corp.internal:5432 and [fe80::1] ' +
      '(api_key=AKIAIOSFODNN7EXAMPLE, Bearer abc.def) from ops@example.com in /srv/app/handler.js\n    at Handler.run (/srv/app.js:1:2)';
    const clean = sanitizeProviderText(text, ['the-channel-secret']);
    for (const leak of ['sk-live', '10.9.8.7', 'internal', 'db.corp', 'fe80', 'AKIA', 'abc.def', 'ops@', '/srv', 'Handler.run', '\n'])
      expect(clean).not.toContain(leak);
    expect(sanitizeProviderText('bad: the-channel-secret', ['the-channel-secret'])).toBe('bad: ***');
    expect(sanitizeProviderText('channel: ErrCode 500090: insufficient balance on the provider account')).toBe(
      'channel: ErrCode 500090: insufficient balance on the provider account',
    );
    expect(
      sanitizeProviderText(
        'invalid_input: InputImageSensitiveContentDetected.PrivacyInformation: the input image may contain a real person',
      ),
    ).toBe('invalid_input: InputImageSensitiveContentDetected.PrivacyInformation: the input image may contain a real person');
    expect(sanitizeProviderText('x'.repeat(1000), [], 50)).toHaveLength(50);
  });

  it('masks secrets, never words after a credential name', () => {
    expect(sanitizeProviderText('channel: the channel api_key must be <access_key>:<secret_key>')).toBe(
      'channel: the channel api_key must be <access_key>:<secret_key>',
    );
    expect(sanitizeProviderText('the provider refused the token because the password was wrong')).toBe(
      'the provider refused the token because the password was wrong',
    );
    expect(sanitizeProviderText('Authorization Bearer abcdefghijklmnopqrstu')).not.toContain('abcdefghijklmnopqrstu');
    expect(sanitizeProviderText('password hunter2 and token: plain')).toBe('password *** and token: ***');
  });

  it('caps what is stored', () => {
    expect(capStoredResponse({ a: 'b' })).toEqual({ a: 'b' });
    expect(capStoredResponse({ a: 'b'.repeat(20_000) })).toEqual({ a: 'b'.repeat(512) });
    expect(capStoredResponse({ a: Array.from({ length: 100 }, () => 'c'.repeat(500)) })).toEqual({ truncated: true });
  });
});
