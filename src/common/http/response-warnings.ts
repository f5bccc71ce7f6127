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
