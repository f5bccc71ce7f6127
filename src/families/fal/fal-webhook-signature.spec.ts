import { generateKeyPairSync } from 'node:crypto';
import { falPublicKeys, falWebhookSigned, signFalWebhook } from './fal-webhook-signature';

describe("fal's webhook signature (ED25519, keys from a JWKS)", () => {
  const pair = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  const jwks = {
    keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }, other.publicKey.export({ format: 'jwk' }), pair.publicKey.export({ format: 'jwk' })],
  };
  const keys = falPublicKeys(jwks);
  const body = Buffer.from('{"request_id":"r1","status":"OK","payload":{}}');
  const now = 1_750_000_000;
  const headersFor = (signature: string, timestamp = now, requestId = 'r1') => ({
    'x-fal-webhook-request-id': requestId,
    'x-fal-webhook-user-id': 'u1',
    'x-fal-webhook-timestamp': String(timestamp),
    'x-fal-webhook-signature': signature,
  });

  it('reads the Ed25519 keys of a JWKS and accepts what one of them signed', () => {
    expect(keys).toHaveLength(2);
    expect(falWebhookSigned(keys, headersFor(signFalWebhook(pair.privateKey, 'r1', 'u1', String(now), body)), body, now)).toBe(true);
  });

  it.each([
    ['another body', () => [headersFor(signFalWebhook(pair.privateKey, 'r1', 'u1', String(now), body)), Buffer.from('{}')]],
    [
      'a key not in the JWKS',
      () => [headersFor(signFalWebhook(generateKeyPairSync('ed25519').privateKey, 'r1', 'u1', String(now), body)), body],
    ],
    ['another request id', () => [headersFor(signFalWebhook(pair.privateKey, 'r1', 'u1', String(now), body), now, 'r2'), body]],
    [
      'a timestamp 6 minutes old (a replay)',
      () => [headersFor(signFalWebhook(pair.privateKey, 'r1', 'u1', String(now - 360), body), now - 360), body],
    ],
    ['no signature', () => [headersFor(''), body]],
  ])('refuses %s', (_, make) => {
    const [headers, sent] = make() as [Record<string, string>, Buffer];
    expect(falWebhookSigned(keys, headers, sent, now)).toBe(false);
  });
});
