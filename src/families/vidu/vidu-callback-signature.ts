import { createHmac, timingSafeEqual } from 'node:crypto';

/** A callback whose `Date` is further than this from now is refused (a replay). */
export const VIDU_CALLBACK_TOLERANCE_MS = 300_000;

// Vidu signs callbacks with the API token that created the task (upstream-protocols-aggregators.md, Vidu, Webhooks).

type Headers = Readonly<Record<string, string | string[] | undefined>>;
const header = (headers: Headers, name: string): string => [headers[name.toLowerCase()]].flat()[0] ?? '';

/** `POST \n path \n query \n vidu \n Date \n` then each signed header as `Name:value\n`. */
export function viduSigningString(pathAndQuery: string, headers: Headers): string {
  const url = new URL(pathAndQuery, 'http://callback.invalid');
  const signed = header(headers, 'x-hmac-signed-headers')
    .split(';')
    .filter(Boolean)
    .map((name) => `${name}:${header(headers, name)}\n`)
    .join('');
  return `POST\n${url.pathname || '/'}\n${url.search.slice(1)}\nvidu\n${header(headers, 'date')}\n${signed}`;
}

/** The headers Vidu sends with a callback, signed with the task's API token. */
export function signViduCallback(apiToken: string, pathAndQuery: string, date: string, nonce: string): Record<string, string> {
  const headers: Record<string, string> = {
    date,
    'x-request-nonce': nonce,
    'x-hmac-signed-headers': 'Date;x-request-nonce',
    'x-hmac-algorithm': 'hmac-sha256',
    'x-hmac-access-key': 'vidu',
  };
  headers['x-hmac-signature'] = createHmac('sha256', apiToken).update(viduSigningString(pathAndQuery, headers)).digest('base64');
  return headers;
}

/** Whether the channel's API token signed this callback, with a recent `Date` among the signed headers. */
export function viduCallbackSigned(apiToken: string, pathAndQuery: string, headers: Headers, now: number): boolean {
  const date = Date.parse(header(headers, 'date'));
  if (Number.isNaN(date) || Math.abs(now - date) > VIDU_CALLBACK_TOLERANCE_MS) return false;
  if (!/(^|;)date(;|$)/i.test(header(headers, 'x-hmac-signed-headers'))) return false;
  const expected = Buffer.from(createHmac('sha256', apiToken).update(viduSigningString(pathAndQuery, headers)).digest('base64'));
  const given = Buffer.from(header(headers, 'x-hmac-signature'));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
