import type { IncomingMessage } from 'node:http';
import typeIs from 'type-is';

/** As body-parser decides it (type-is's hasBody): a body is announced by Transfer-Encoding or Content-Length. */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !isNaN(Number(req.headers['content-length']));
}

/** A request with a body that the JSON parser reads (`Content-Type: application/json`, any parameters). */
export function hasJsonBody(req: IncomingMessage): boolean {
  return hasBody(req) && typeIs.is(req.headers['content-type'] ?? '', ['application/json']) !== false;
}

/**
 * `req.is('multipart/form-data')` as a yes or no, without type-is's parse for the JSON bodies
 * (nearly every submit): a Content-Type that starts `application/json` is no multipart.
 */
export function isMultipart(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || type.startsWith('application/json')) return false;
  return Boolean(typeIs(req, ['multipart/form-data']));
}
