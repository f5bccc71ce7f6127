import { signViduCallback, viduCallbackSigned, viduSigningString } from './vidu-callback-signature';

describe("Vidu's callback signature (HMAC-SHA256 with the task's API token)", () => {
  const token = 'vda_test_token';
  const path = '/v1/provider-callbacks/vidu/task_abc.mac';
  const now = Date.parse('Tue, 06 May 2025 12:09:42 GMT');
  const date = new Date(now).toUTCString();

  it("writes the signing string as Vidu's docs show it", () => {
    const headers = {
      date: 'Tue, 06 May 2025 12:09:42 GMT',
      'x-request-nonce': '123e4567-e89b-12d3-a456-426614174000',
      'x-hmac-signed-headers': 'Date;x-request-nonce',
    };
    expect(viduSigningString('/vidu/callback?name=james&age=36', headers)).toBe(
      'POST\n/vidu/callback\nname=james&age=36\nvidu\nTue, 06 May 2025 12:09:42 GMT\nDate:Tue, 06 May 2025 12:09:42 GMT\n' +
        'x-request-nonce:123e4567-e89b-12d3-a456-426614174000\n',
    );
  });

  it('accepts what the token signed', () => {
    expect(viduCallbackSigned(token, path, signViduCallback(token, path, date, 'n1'), now)).toBe(true);
  });

  it.each([
    ['another token', () => signViduCallback('vda_other', path, date, 'n1'), path],
    ['another path (another task)', () => signViduCallback(token, '/v1/provider-callbacks/vidu/task_other.mac', date, 'n1'), path],
    ['a Date 6 minutes old (a replay)', () => signViduCallback(token, path, new Date(now - 360_000).toUTCString(), 'n1'), path],
    ['a changed nonce', () => ({ ...signViduCallback(token, path, date, 'n1'), 'x-request-nonce': 'n2' }), path],
  ])('refuses %s', (_, make, at) => {
    expect(viduCallbackSigned(token, at, make(), now)).toBe(false);
  });
});
