import { isIPv6 } from 'node:net';
import { ownValue } from '../common/runtime/own-value';

/**
 * What a provider says is mapped (by its documented code) or summarised, never passed on: its
 * free text may carry internal addresses, URLs, the key it was called with, or stack traces.
 * These helpers are shared by the families' error mappings and everything that keeps text for
 * operators (a channel's last_error, logs).
 */

/** The most the gateway reads of one provider API answer (JSON task and control APIs); more is a transient error. */
export const MAX_PROVIDER_BODY_BYTES = 1024 * 1024;
/** The most a task keeps of a provider's query answer (`upstream_response`). */
export const MAX_STORED_RESPONSE_BYTES = 16 * 1024;

/** What a refused call says when the provider's code is unknown (or unusable), by how it is treated. */
export const GENERIC_REASON = {
  invalid_input: 'the provider refused the input',
  moderation: 'content moderation failed',
  backpressure: 'the provider is throttling requests',
  channel: 'the provider refused the channel',
  transient: 'provider error',
} as const;

const CODE_SHAPE = /^[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z][A-Za-z0-9]*)*$/;

/**
 * The provider's error code when it looks like one (`InvalidParameter.DataInspection`,
 * `InternalError.Algo`), else undefined: a "code" that carries a URL, an address, a key or
 * free text is not passed on. `secrets` (the channel's keys) are never accepted as a code.
 */
export function providerCode(value: unknown, secrets: ReadonlyArray<string | null | undefined> = []): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim();
  if (code.length === 0 || code.length > 80 || !CODE_SHAPE.test(code)) return undefined;
  // Key-like segments: long runs mixing letters and digits, or many digits.
  if (code.split(/[._]/).some((segment) => (segment.length >= 16 && /\d/.test(segment)) || (segment.match(/\d/g)?.length ?? 0) > 4))
    return undefined;
  if (secrets.some((secret) => typeof secret === 'string' && secret.length >= 4 && (code.includes(secret) || secret.includes(code))))
    return undefined;
  return code;
}

/**
 * A code's description from a family's table of documented codes: the exact code, else its
 * longest documented prefix (`InvalidParameter.NewRule` -> `InvalidParameter`).
 */
export function describeCode(table: Readonly<Record<string, string>>, code: string | undefined): string | undefined {
  if (!code) return undefined;
  const segments = code.split('.');
  for (let length = segments.length; length > 0; length--) {
    const description = ownValue(table, segments.slice(0, length).join('.'));
    if (description !== undefined) return description;
  }
  return undefined;
}

/** `<code>: <description>` for a documented code, `<code>: <generic>` for another, the generic summary without a usable code. */
export function codeSummary(
  table: Readonly<Record<string, string>>,
  code: string | undefined,
  generic: string,
  httpStatus?: number,
): string {
  if (!code) return httpStatus ? `${generic} (HTTP ${httpStatus})` : generic;
  return `${code}: ${describeCode(table, code) ?? generic}`;
}

/** A transport failure in words, never its message (which names the host and port, or the URL). */
export function describeTransportError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (/maxContentLength|maxBodyLength|content length|too large/i.test(text) || code === 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED')
    return 'response too large';
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(text)) return 'timeout';
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : 'network error';
}

/** `<who> unreachable (<why>)`, or that it answered more than the gateway reads: never the error's own message. */
export function transportErrorMessage(who: string, error: unknown): string {
  const why = describeTransportError(error);
  return why === 'response too large'
    ? `${who} answered with a body over ${MAX_PROVIDER_BODY_BYTES / (1024 * 1024)} MiB`
    : `${who} unreachable (${why})`;
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s"'<>()[\]{}]*/gi;
const EMAIL_PATTERN = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
// After a bare space only what looks like a secret is one: in `api_key must be`, `must` is a word of prose.
const CREDENTIAL_PATTERN =
  /\b(bearer|basic|api[-_ ]?key|access[-_ ]?key(?:[-_ ]?id)?|secret(?:[-_ ]?key)?|token|password|passwd|authorization|signature|credential)(?:(\s*[:=]\s*)|\s+(?![A-Za-z]{1,15}(?:[\s"',;)]|$)))["']?[^\s"',;)]+/gi;
const IPV4_PATTERN = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g;
const IPV6_CANDIDATE = /\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?(?::\d{1,5})?/g;
const HOST_PATTERN = /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}(?::\d{1,5})?\b|\blocalhost(?::\d{1,5})?\b/g;
const PATH_PATTERN = /(?:^|(?<=[\s"'(=:]))(?:\/[\w.@~-]+){2,}\/?|\b[A-Za-z]:\\[^\s"']+/g;
const STACK_FRAME = /\bat\s+(?:[\w$.<>[\]]+\s+)?\(?[^\s()]*[/\\.][^\s()]*:\d+:\d+\)?/g;
const KEY_LIKE = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}\b|\bsk-[A-Za-z0-9_-]{6,}/g;

/**
 * The last line of defence for free text kept for operators (a channel's last_error, logs):
 * known secrets, URLs, e-mail addresses, credentials, IP addresses, host names, file paths,
 * stack frames and key-like tokens are replaced, only the first line is kept, and the result
 * is at most `maxLength` characters. Mapped messages pass through unchanged.
 */
export function sanitizeProviderText(text: unknown, secrets: ReadonlyArray<string | null | undefined> = [], maxLength = 300): string {
  if (typeof text !== 'string') return '';
  let out = text.split(/\r?\n/)[0];
  for (const secret of secrets) if (typeof secret === 'string' && secret.length >= 4) out = out.split(secret).join('***');
  out = out
    .replace(STACK_FRAME, '<stack>')
    .replace(URL_PATTERN, '<url>')
    .replace(EMAIL_PATTERN, '<email>')
    .replace(CREDENTIAL_PATTERN, (_match, name: string, separator: string | undefined) => `${name}${separator ?? ' '}***`)
    .replace(PATH_PATTERN, '<path>')
    .replace(IPV4_PATTERN, '<address>')
    .replace(IPV6_CANDIDATE, (candidate) => (isIPv6(candidate.replace(/^\[|\](?::\d+)?$/g, '')) ? '<address>' : candidate))
    .replace(HOST_PATTERN, '<host>')
    .replace(KEY_LIKE, '***')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return out.length > maxLength ? `${out.slice(0, maxLength - 1)}…` : out;
}

/** The channel's secrets (its key, and the settings its family marks secret), to be kept out of anything a provider's answer is turned into. */
export function channelSecrets(
  channel: { apiKey?: string | null; settings?: Record<string, unknown> | null },
  secretSettings: readonly string[] = [],
): string[] {
  const settings = channel.settings ?? {};
  return [channel.apiKey, ...secretSettings.map((name) => settings[name])].filter(
    (value): value is string => typeof value === 'string' && value.length >= 4,
  );
}

/** A short string field of a provider answer worth keeping, or undefined. */
export function keptText(value: unknown, maxLength = 256): string | undefined {
  return typeof value === 'string' && value.length <= maxLength ? value : undefined;
}

/** A finite number field of a provider answer (also a numeric string), or undefined. */
export function keptNumber(value: unknown): number | string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.length <= 32 && /^-?\d+(\.\d+)?$/.test(value)) return value;
  return undefined;
}

/** Drops undefined fields (and returns undefined for an object left empty). */
export function compact<T extends Record<string, unknown>>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, field]) => field !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as T) : undefined;
}

/**
 * A stored provider answer never exceeds `maxBytes` of JSON: the family's picked fields normally
 * fit; if not, the longest strings are cut, and as a last resort only a marker is kept.
 */
export function capStoredResponse<T>(value: T, maxBytes = MAX_STORED_RESPONSE_BYTES): T | { truncated: true } {
  if (value === null || value === undefined) return value;
  if (Buffer.byteLength(JSON.stringify(value)) <= maxBytes) return value;
  const shortened = shortenStrings(value, 512) as T;
  if (Buffer.byteLength(JSON.stringify(shortened)) <= maxBytes) return shortened;
  return { truncated: true };
}

function shortenStrings(value: unknown, maxLength: number): unknown {
  if (typeof value === 'string') return value.length > maxLength ? value.slice(0, maxLength) : value;
  if (Array.isArray(value)) return value.map((item) => shortenStrings(item, maxLength));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shortenStrings(field, maxLength)]));
  return value;
}
