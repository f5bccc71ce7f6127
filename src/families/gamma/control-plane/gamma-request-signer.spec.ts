import { canonicalQuery, formatXDate, signRequest } from './gamma-request-signer';

/**
 * The expected values were computed by hand with openssl (sha256 / HMAC-SHA256 step by step,
 * following the protocol document), not with this code. What the provider's check makes of these
 * signatures: the family's emulator, src/families/gamma/emulator/gamma-signature-check.spec.ts.
 */
const BODY = '{"CallbackURL":"https://gw.example.com/v1/callback","ProjectName":"default"}';
const VECTOR = {
  method: 'POST',
  path: '/',
  query: new URLSearchParams({ Version: '2024-01-01', Action: 'CreateVisualValidateSession' }),
  host: 'open.example.com',
  contentType: 'application/json',
  body: BODY,
  accessKey: 'AKTESTEXAMPLE',
  secretKey: 'secret/EXAMPLE+key',
  region: 'cn-beijing',
  date: new Date('2026-01-02T03:04:05.678Z'),
};
const BODY_SHA256 = '7a38dc6df416023b50d5fd293c5edc6e95705bd0690897e491bdb70e39e71e91';
const SIGNATURE = 'b0d536e1a46a98fa1dc8e294ab0952a34cb4acd28d7ab82b4f2b09b3d877cb2d';

describe('family C control plane request signing', () => {
  it('matches the hand-computed vector', () => {
    const signed = signRequest(VECTOR);
    expect(signed.canonicalRequest).toBe(
      [
        'POST',
        '/',
        'Action=CreateVisualValidateSession&Version=2024-01-01',
        'content-type:application/json',
        'host:open.example.com',
        `x-content-sha256:${BODY_SHA256}`,
        'x-date:20260102T030405Z',
        '',
        'content-type;host;x-content-sha256;x-date',
        BODY_SHA256,
      ].join('\n'),
    );
    expect(signed.stringToSign).toBe(
      'HMAC-SHA256\n20260102T030405Z\n20260102/cn-beijing/ark/request\n517dab2c4b997c0e261d2b7657a99fb8bb75196f166e4f55cfcdcf4435900a52',
    );
    expect(signed.signature).toBe(SIGNATURE);
    expect(signed.headers).toEqual({
      'Content-Type': 'application/json',
      Host: 'open.example.com',
      'X-Date': '20260102T030405Z',
      'X-Content-Sha256': BODY_SHA256,
      Authorization: `HMAC-SHA256 Credential=AKTESTEXAMPLE/20260102/cn-beijing/ark/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=${SIGNATURE}`,
    });
  });

  it('sorts and RFC 3986-encodes the query', () => {
    expect(
      canonicalQuery(
        new URLSearchParams([
          ['b', "it's (a) *"],
          ['a', 'x y'],
          ['a', 'w'],
        ]),
      ),
    ).toBe('a=w&a=x%20y&b=it%27s%20%28a%29%20%2A');
    expect(formatXDate(new Date('2026-12-31T23:59:59.999Z'))).toBe('20261231T235959Z');
  });
});
