import { neverSent, transportError } from './transport-error';

describe('transportError', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const timeout = Object.assign(new Error('timeout of 30000ms exceeded'), { code: 'ECONNABORTED' });
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

  it('a refused connection or an unknown host never reached the provider', () => {
    expect(neverSent(refused)).toBe(true);
    expect(neverSent({ code: 'ERR_BAD_REQUEST', cause: { code: 'ENOTFOUND' } })).toBe(true);
    expect(neverSent(timeout)).toBe(false);
    expect(neverSent(reset)).toBe(false);
  });

  it('the creating call may have been accepted unless it never left; other calls never say so', () => {
    expect(transportError('provider', timeout, true).details).toEqual({ mayHaveBeenAccepted: true });
    expect(transportError('provider', reset, true).details).toEqual({ mayHaveBeenAccepted: true });
    expect(transportError('provider', refused, true).details).toEqual({});
    expect(transportError('provider', timeout).details).toEqual({});
    expect(transportError('provider', timeout, true)).toMatchObject({ kind: 'transient', message: 'provider unreachable (timeout)' });
  });
});
