import { createHash, createHmac } from 'node:crypto';

/**
 * The family C control plane's request signature: an HMAC-SHA256 variant of AWS SigV4
 * (service `ark`, scope `SHORTDATE/REGION/ark/request`), as the protocol document describes.
 */
export const SIGNING_ALGORITHM = 'HMAC-SHA256';
export const SIGNING_SERVICE = 'ark';
export const SIGNED_HEADERS = 'content-type;host;x-content-sha256;x-date';

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
