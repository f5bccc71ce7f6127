import { signRequest } from '../control-plane/gamma-request-signer';
import { signatureProblem, type SignedRequest } from './gamma-signature-check';

const BODY = '{"CallbackURL":"https://gw.example.com/v1/callback","ProjectName":"default"}';
const ACCOUNT = { accessKey: 'AKTESTEXAMPLE', secretKey: 'secret/EXAMPLE+key', region: 'cn-beijing' };
const DATE = new Date('2026-01-02T03:04:05.678Z');
const QUERY = new URLSearchParams({ Version: '2024-01-01', Action: 'CreateVisualValidateSession' });

/** The request the gateway's signer makes (its vector is checked by hand in gamma-request-signer.spec.ts), as it arrives. */
function signed(overrides: Partial<Parameters<typeof signRequest>[0]> = {}): SignedRequest {
  const input = {
    method: 'POST',
    path: '/control/',
    query: QUERY,
    host: 'open.example.com',
    contentType: 'application/json',
    body: BODY,
    ...ACCOUNT,
    date: DATE,
    ...overrides,
  };
  const { headers } = signRequest(input);
  return {
    method: input.method,
    path: input.path,
    query: input.query,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
    body: Buffer.from(input.body),
  };
}

/** The provider's check, written apart from the gateway's signer: the two agree, and the check refuses what it must. */
describe('family C emulator: the control plane signature check', () => {
  const now = DATE.getTime();

  it('accepts what the gateway signs, within 15 minutes of its X-Date', () => {
    expect(signatureProblem(signed(), ACCOUNT, now)).toBeNull();
    expect(signatureProblem(signed(), ACCOUNT, now + 14 * 60_000)).toBeNull();
    expect(
      signatureProblem(
        signed({
          query: new URLSearchParams([
            ['b', "it's (a) *"],
            ['a', 'x y'],
          ]),
        }),
        ACCOUNT,
        now,
      ),
    ).toBeNull();
  });

  it('refuses tampering, another key, region or date, and a missing signature', () => {
    const request = signed();
    expect(signatureProblem({ ...request, body: Buffer.from(BODY.replace('default', 'other')) }, ACCOUNT, now)).toBe(
      'X-Content-Sha256 mismatch',
    );
    const query = new URLSearchParams({ Action: 'DeleteAsset', Version: '2024-01-01' });
    expect(signatureProblem({ ...request, query }, ACCOUNT, now)).toBe('signature mismatch');
    expect(signatureProblem({ ...request, path: '/' }, ACCOUNT, now)).toBe('signature mismatch');
    expect(signatureProblem({ ...request, headers: { ...request.headers, host: 'other.example.com' } }, ACCOUNT, now)).toBe(
      'signature mismatch',
    );
    expect(signatureProblem(request, { ...ACCOUNT, secretKey: 'another-secret' }, now)).toBe('signature mismatch');
    expect(signatureProblem(request, { ...ACCOUNT, accessKey: 'AKOTHER' }, now)).toBe('unknown access key');
    expect(signatureProblem(signed({ region: 'cn-shanghai' }), ACCOUNT, now)).toBe('region cn-shanghai instead of cn-beijing');
    expect(signatureProblem(request, ACCOUNT, now + 16 * 60_000)).toBe('X-Date more than 15 minutes off');
    expect(signatureProblem({ ...request, headers: { ...request.headers, 'x-date': '20260102T030406Z' } }, ACCOUNT, now)).toBe(
      'signature mismatch',
    );
    expect(signatureProblem({ ...request, headers: { ...request.headers, authorization: undefined } }, ACCOUNT, now)).toBe(
      'malformed Authorization',
    );
  });
});
