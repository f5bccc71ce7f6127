import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../common/errors/app-error';
import { findUnstorableText, unstorableIn } from '../common/http/storable-text';

export const NO_SUCH_ID = 'not found: no id contains a NUL character (U+0000)';

/** The provider's browser redirect answers bad tokens with its own HTML pages (CallbackService). */
const ANSWERS_ITS_OWN_QUERY = /^\/v1\/callback\/?$/i;

/**
 * Text no database of the gateway can store (see unstorableIn) is refused where it enters, once for
 * every route (the hot routes run this too), after the body parsers: a NUL in the path is an id that
 * no row can have, a 404; in a query parameter or a body field, a 400 naming it. Multipart fields are
 * checked as multer reads them (multipartOptions).
 */
export function refuseUnstorableText(req: Request, _res: Response, next: NextFunction): void {
  next(unstorableTextError(req) ?? undefined);
}

function unstorableTextError(req: Request): AppError | null {
  const url = req.url;
  // Node refuses a raw NUL in the request line, so one comes percent-encoded; a URL decodes to no
  // unpaired surrogate (Express refuses such a path, the query parser makes it U+FFFD).
  if (url.includes('%00')) {
    const queryStart = url.indexOf('?');
    if (url.slice(0, queryStart === -1 ? url.length : queryStart).includes('%00')) return AppError.notFound(NO_SUCH_ID);
    if (!ANSWERS_ITS_OWN_QUERY.test(req.path)) {
      const found = unstorableQuery(req.query);
      if (found) return found;
    }
  }
  const found = findUnstorableText(req.body);
  return found && AppError.invalid(found.message, found.field);
}

/** A query parameter is named as sent, whether it came once or several times. */
function unstorableQuery(query: Record<string, unknown>): AppError | null {
  for (const [name, value] of Object.entries(query)) {
    const inName = unstorableIn(name);
    if (inName) return AppError.invalid(`query parameter names must not contain ${inName}`);
    for (const text of [value].flat()) {
      const problem = typeof text === 'string' ? unstorableIn(text) : null;
      if (problem) return AppError.invalid(`${name} must not contain ${problem}`, name);
    }
  }
  return null;
}
