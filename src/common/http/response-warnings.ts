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

/**
 * The answer to a submit or quote of a deprecated model: `Deprecation` (RFC 9745: deprecated as of
 * now), `Sunset` (RFC 8594) when it has a date, and a warning naming the replacement.
 */
export function sendDeprecation(req: Request, deprecated: { sunsetAt: number | null; replacement: string | null } | undefined): void {
  if (!deprecated || !req.res) return;
  req.res.setHeader('Deprecation', `@${Math.floor(Date.now() / 1000)}`);
  if (deprecated.sunsetAt !== null) req.res.setHeader('Sunset', new Date(deprecated.sunsetAt * 1000).toUTCString());
  const after = deprecated.sunsetAt !== null ? ` after ${new Date(deprecated.sunsetAt * 1000).toISOString()}` : '';
  const instead = deprecated.replacement ? `; use ${deprecated.replacement}` : '';
  const warning = `model is deprecated and will be refused${after}${instead}`;
  const earlier = req.res.getHeader(WARNING_HEADER);
  req.res.setHeader(WARNING_HEADER, earlier ? `${String(earlier)}; ${warning}` : warning);
}
