import { generateKeyPairSync, sign } from 'node:crypto';
import { feedSignatureProblem } from './feed-signature';

describe('feedSignatureProblem: the document must be what the key signed', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const document = Buffer.from('{"version":1,"models":[]}\n');
  const signature = sign(null, document, privateKey).toString('base64');

  it('takes the signature of these very bytes (base64, with a trailing newline)', () => {
    expect(raw).toHaveLength(32);
    expect(feedSignatureProblem(document, signature, raw)).toBeNull();
    expect(feedSignatureProblem(document, `${signature}\n`, raw)).toBeNull();
  });

  it('refuses a byte changed, another key, and what is not a signature', () => {
    const changed = Buffer.from(document);
    changed[changed.length - 2] ^= 1;
    expect(feedSignatureProblem(changed, signature, raw)).toBe('the signature does not verify with CATALOG_FEED_PUBLIC_KEY');
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
    expect(feedSignatureProblem(document, signature, Buffer.from(other, 'base64url'))).toMatch(/does not verify/);
    expect(feedSignatureProblem(document, signature.slice(0, 40), raw)).toMatch(/not a base64 Ed25519 signature/);
    expect(feedSignatureProblem(document, '<html>not found</html>', raw)).toMatch(/not a base64 Ed25519 signature/);
  });
});
