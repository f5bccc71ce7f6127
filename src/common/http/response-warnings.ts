import type { Request } from 'express';

/** A response header saying what the gateway changed in an accepted request (a prompt truncated to a provider's limit). */
export const WARNING_HEADER = 'X-Gateway-Warning';

export const WARNING_HEADER_DOC = {
  [WARNING_HEADER]: {
    description:
      'present when the gateway changed the request to fit the provider (family B: a prompt longer than its limit is truncated), saying what it did',
    schema: {
      type: 'string',
      example: 'prompt truncated to 5000 characters (family B: at most 5000 non-Chinese or 2500 Chinese characters)',
    },
  },
};

/** Sets the warning header of an accepted submit (ASCII only, one line, as a header must be). */
export function sendWarnings(req: Request, warnings: string[] | undefined): void {
  if (!warnings?.length) return;
  req.res?.setHeader(WARNING_HEADER, warnings.join('; ').replace(/[^\x20-\x7e]/g, '?'));
}

/** What a deprecated model's answer carries: the model's date and the replacement the caller may use. */
export interface Deprecation {
  sunsetAt: number | null;
  replacement: string | null;
}

/**
 * The headers of a submit or quote of a deprecated model: `Deprecation` (RFC 9745: deprecated as
 * of now), `Sunset` (RFC 8594) when it has a date, and a warning naming the replacement. Total: a
 * date no Date can print (a row stored before sunset_at was bounded) is left out, never thrown on,
 * since it is written after the task is made.
 */
export function deprecationHeaders(deprecated: Deprecation, nowMs: number): { deprecation: string; sunset?: string; warning: string } {
  const sunset = deprecated.sunsetAt !== null ? new Date(deprecated.sunsetAt * 1000) : null;
  const printable = sunset !== null && Number.isFinite(sunset.getTime()) ? sunset : null;
  const after = printable ? ` after ${printable.toISOString()}` : '';
  const instead = deprecated.replacement ? `; use ${deprecated.replacement}` : '';
  return {
    deprecation: `@${Math.floor(nowMs / 1000)}`,
    ...(printable ? { sunset: printable.toUTCString() } : {}),
    warning: `model is deprecated and will be refused${after}${instead}`,
  };
}

/** Sets a deprecated model's headers on a submit's or quote's answer (see deprecationHeaders). */
export function sendDeprecation(req: Request, deprecated: Deprecation | undefined): void {
  if (!deprecated || !req.res) return;
  const headers = deprecationHeaders(deprecated, Date.now());
  req.res.setHeader('Deprecation', headers.deprecation);
  if (headers.sunset) req.res.setHeader('Sunset', headers.sunset);
  const earlier = req.res.getHeader(WARNING_HEADER);
  req.res.setHeader(WARNING_HEADER, earlier ? `${String(earlier)}; ${headers.warning}` : headers.warning);
}
