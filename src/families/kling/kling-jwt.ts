import { createHmac, timingSafeEqual } from 'node:crypto';

/** Kling's recommended token life (30 min) and how far back `nbf` goes, for clocks a little apart. */
export const KLING_TOKEN_TTL_SECONDS = 1800;
const NOT_BEFORE_SKEW_SECONDS = 5;

const base64url = (input: Buffer | string): string => Buffer.from(input).toString('base64url');

/** A channel's api_key `<access_key>:<secret_key>`; null when it is not written so. */
export function klingKeyPair(apiKey: string | null | undefined): { accessKey: string; secretKey: string } | null {
  const colon = (apiKey ?? '').indexOf(':');
  if (colon <= 0 || colon === apiKey!.length - 1) return null;
  return { accessKey: apiKey!.slice(0, colon), secretKey: apiKey!.slice(colon + 1) };
}

/** The HS256 JWT Kling wants on every call: `iss` the access key, valid from a few seconds back for 30 min. */
export function signKlingJwt(accessKey: string, secretKey: string, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ iss: accessKey, exp: now + KLING_TOKEN_TTL_SECONDS, nbf: now - NOT_BEFORE_SKEW_SECONDS }));
  const signature = createHmac('sha256', secretKey).update(`${head}.${claims}`).digest('base64url');
  return `${head}.${claims}.${signature}`;
}

/**
 * Kling's check of a Bearer token (the simulator's): 0 when valid, else its auth code — 1001 none,
 * 1002 malformed, unknown issuer or bad signature, 1003 not yet valid (`nbf`), 1004 expired (`exp`).
 */
export function klingTokenCode(
  authorization: string | undefined,
  secretOf: (accessKey: string) => string | undefined,
  nowMs: number,
): number {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!token) return 1001;
  const [head, claims, signature, extra] = token.split('.');
  if (!head || !claims || !signature || extra !== undefined) return 1002;
  let parsed: { alg?: unknown; iss?: unknown; exp?: unknown; nbf?: unknown };
  try {
    if (JSON.parse(Buffer.from(head, 'base64url').toString()).alg !== 'HS256') return 1002;
    parsed = JSON.parse(Buffer.from(claims, 'base64url').toString());
  } catch {
    return 1002;
  }
  const secret = typeof parsed.iss === 'string' ? secretOf(parsed.iss) : undefined;
  if (secret === undefined) return 1002;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${head}.${claims}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 1002;
  const now = Math.floor(nowMs / 1000);
  if (typeof parsed.nbf === 'number' && parsed.nbf > now) return 1003;
  if (typeof parsed.exp !== 'number' || parsed.exp < now) return 1004;
  return 0;
}
