import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The family C control plane's request signature: an HMAC-SHA256 variant of AWS SigV4
 * (service `ark`, scope `SHORTDATE/REGION/ark/request`), as the protocol document describes.
 */
export const SIGNING_ALGORITHM = 'HMAC-SHA256';
export const SIGNING_SERVICE = 'ark';
export const SIGNED_HEADERS = 'content-type;host;x-content-sha256;x-date';
/** A signature whose X-Date is further than this from the server's clock is refused. */
export const MAX_CLOCK_SKEW_MS = 15 * 60_000;

export interface SignInput {
  method: string;
  /** Path as sent on the wire (already percent-encoded), e.g. `/`. */
  path: string;
  query: URLSearchParams;
  host: string;
  contentType: string;
  body: string | Buffer;
  accessKey: string;
  secretKey: string;
  region: string;
  date: Date;
}

export interface Signature {
  /** The headers to send (besides the body). */
  headers: { 'Content-Type': string; Host: string; 'X-Date': string; 'X-Content-Sha256': string; Authorization: string };
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 percent-encoding (encodeURIComponent leaves `!'()*` alone; SigV4 does not). */
export const uriEncode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `YYYYMMDDTHHMMSSZ` in UTC. */
export const formatXDate = (date: Date): string =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Parameters sorted by name (then value), each `urlencode(name)=urlencode(value)`, joined by `&`. */
export function canonicalQuery(query: URLSearchParams): string {
  return [...query.entries()]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

export function signingKey(secretKey: string, shortDate: string, region: string): Buffer {
  const kDate = hmac(secretKey, shortDate);
  const kRegion = hmac(kDate, region);
  const kService = hmac(kRegion, SIGNING_SERVICE);
  return hmac(kService, 'request');
}

/** Computes the signature and the headers that carry it. */
export function signRequest(input: SignInput): Signature {
  const xDate = formatXDate(input.date);
  const shortDate = xDate.slice(0, 8);
  const bodyHash = sha256Hex(input.body);
  const canonicalHeaders =
    `content-type:${input.contentType.trim()}\n` + `host:${input.host.trim()}\n` + `x-content-sha256:${bodyHash}\n` + `x-date:${xDate}\n`;
  const canonicalRequest = [
    input.method.toUpperCase(),
    input.path || '/',
    canonicalQuery(input.query),
    canonicalHeaders,
    SIGNED_HEADERS,
    bodyHash,
  ].join('\n');
  const scope = `${shortDate}/${input.region}/${SIGNING_SERVICE}/request`;
  const stringToSign = [SIGNING_ALGORITHM, xDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(input.secretKey, shortDate, input.region))
    .update(stringToSign)
    .digest('hex');
  return {
    headers: {
      'Content-Type': input.contentType,
      Host: input.host,
      'X-Date': xDate,
      'X-Content-Sha256': bodyHash,
      Authorization: `${SIGNING_ALGORITHM} Credential=${input.accessKey}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`,
    },
    canonicalRequest,
    stringToSign,
    signature,
  };
}

export interface IncomingSignedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type SignatureCheck =
  { ok: true; accessKey: string } | { ok: false; code: 'SignatureDoesNotMatch' | 'InvalidAccessKey'; message: string };

const AUTHORIZATION =
  /^HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/ark\/request, ?SignedHeaders=([^,\s]+), ?Signature=([0-9a-f]{64})$/;
const X_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** Server side (the simulator): recomputes the signature of a received request and compares. */
export function verifySignedRequest(
  request: IncomingSignedRequest,
  secretFor: (accessKey: string) => string | undefined,
  now: number,
): SignatureCheck {
  const header = (name: string): string => {
    const value = request.headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  const match = AUTHORIZATION.exec(header('authorization'));
  if (!match) return { ok: false, code: 'SignatureDoesNotMatch', message: 'missing or malformed Authorization header' };
  const [, accessKey, shortDate, region, signedHeaders, signature] = match;
  const secretKey = secretFor(accessKey);
  if (secretKey === undefined) return { ok: false, code: 'InvalidAccessKey', message: 'unknown access key' };
  const xDate = header('x-date');
  const parts = X_DATE.exec(xDate);
  if (!parts || xDate.slice(0, 8) !== shortDate)
    return { ok: false, code: 'SignatureDoesNotMatch', message: 'missing or malformed X-Date' };
  const signedAt = Date.UTC(+parts[1], +parts[2] - 1, +parts[3], +parts[4], +parts[5], +parts[6]);
  if (Math.abs(now - signedAt) > MAX_CLOCK_SKEW_MS)
    return { ok: false, code: 'SignatureDoesNotMatch', message: 'X-Date is more than 15 minutes off' };
  if (signedHeaders !== SIGNED_HEADERS)
    return { ok: false, code: 'SignatureDoesNotMatch', message: `SignedHeaders must be ${SIGNED_HEADERS}` };
  if (header('x-content-sha256') !== sha256Hex(request.body))
    return { ok: false, code: 'SignatureDoesNotMatch', message: 'X-Content-Sha256 does not match the body' };
  const expected = signRequest({
    method: request.method,
    path: request.path,
    query: request.query,
    host: header('host'),
    contentType: header('content-type'),
    body: request.body,
    accessKey,
    secretKey,
    region,
    date: new Date(signedAt),
  }).signature;
  const same = timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
  return same ? { ok: true, accessKey } : { ok: false, code: 'SignatureDoesNotMatch', message: 'the request signature does not match' };
}
