import { createHash, createHmac } from 'node:crypto';

/** A signature whose X-Date is further than this from the provider's clock is refused. */
const MAX_SKEW_MS = 15 * 60_000;
const SIGNED_HEADERS = 'content-type;host;x-content-sha256;x-date';
const AUTHORIZATION = /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/ark\/request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;
const X_DATE = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/** A control plane request as it arrived: what the signature covers. */
export interface SignedRequest {
  method: string;
  /** The path as sent on the wire. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The one key pair the provider account signs with, and its region (null: any region, each signed with its own name). */
export interface SigningAccount {
  accessKey: string;
  secretKey: string;
  region: string | null;
}

/**
 * The provider's check of a control plane signature, written from the protocol document (HMAC-SHA256,
 * its variant of AWS SigV4) and on purpose not with the gateway's signer, so that a mistake in one
 * is not repeated by the other. Why it refused the request, or null when it checks out.
 */
export function signatureProblem(req: SignedRequest, account: SigningAccount, now: number): string | null {
  const header = (name: string) => {
    const value = req.headers[name];
    return String((Array.isArray(value) ? value[0] : value) ?? '');
  };
  const match = AUTHORIZATION.exec(header('authorization'));
  if (!match) return 'malformed Authorization';
  const [, accessKey, shortDate, region, signedHeaders, signature] = match;
  if (accessKey !== account.accessKey) return 'unknown access key';
  if (account.region !== null && region !== account.region) return `region ${region} instead of ${account.region}`;
  if (signedHeaders !== SIGNED_HEADERS) return 'unexpected SignedHeaders';
  const xDate = header('x-date');
  const date = X_DATE.exec(xDate);
  if (!date || xDate.slice(0, 8) !== shortDate) return 'bad X-Date';
  const signedAt = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
  if (Math.abs(now - signedAt) > MAX_SKEW_MS) return 'X-Date more than 15 minutes off';
  const bodyHash = sha256(req.body);
  if (header('x-content-sha256') !== bodyHash) return 'X-Content-Sha256 mismatch';
  const query = [...req.query.entries()]
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const headers = SIGNED_HEADERS.split(';')
    .map((name) => `${name}:${header(name).trim()}\n`)
    .join('');
  const canonical = `${req.method}\n${req.path}\n${query}\n${headers}\n${signedHeaders}\n${bodyHash}`;
  const scope = `${shortDate}/${region}/ark/request`;
  const toSign = `HMAC-SHA256\n${xDate}\n${scope}\n${sha256(canonical)}`;
  const key = hmac(hmac(hmac(hmac(account.secretKey, shortDate), region), 'ark'), 'request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature ? null : 'signature mismatch';
}
