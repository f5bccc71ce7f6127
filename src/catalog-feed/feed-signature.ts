import { createPublicKey, verify } from 'node:crypto';

/**
 * Whether `signatureText` (base64 of the 64-byte Ed25519 signature, as `<url>.sig` holds it; spaces
 * and a trailing newline allowed) verifies `document` under `publicKey` (the raw 32-byte key);
 * null when it does, else why not, in words for the operator.
 */
export function feedSignatureProblem(document: Buffer, signatureText: string, publicKey: Buffer): string | null {
  const text = signatureText.replace(/\s+/g, '');
  const signature = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || signature.length !== 64)
    return 'the signature file is not a base64 Ed25519 signature (64 bytes)';
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') }, format: 'jwk' });
  return verify(null, document, key, signature) ? null : 'the signature does not verify with CATALOG_FEED_PUBLIC_KEY';
}
