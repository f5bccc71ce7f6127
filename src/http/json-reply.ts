import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import etag from 'etag';
import fresh from 'fresh';

/**
 * A JSON answer written exactly as Express's `res.status(status).json(body)` writes it with the
 * gateway's settings (weak ETag, no JSON spaces or replacer): the same Content-Type, Content-Length
 * and ETag, 304 to a fresh conditional GET, no body to HEAD. Headers and body go out in one write
 * (Node joins a string body to the headers; a Buffer would be a second chunk).
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders): void {
  const payload = JSON.stringify(body);
  // etag hashes a string's UTF-8 bytes, as Express's Buffer of it.
  const tag = etag(payload, { weak: true });
  const notModified = isFresh(req, status, tag);
  const all: OutgoingHttpHeaders = { ...headers, ETag: tag };
  if (!notModified) {
    all['Content-Type'] = 'application/json; charset=utf-8';
    all['Content-Length'] = Buffer.byteLength(payload, 'utf8');
  }
  res.writeHead(notModified ? 304 : status, all);
  res.end(notModified || req.method === 'HEAD' ? undefined : payload);
}

/** As Express's `req.fresh`: a GET or HEAD with a 2xx answer whose validators the client already holds. */
function isFresh(req: IncomingMessage, status: number, tag: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (status < 200 || status >= 300) return false;
  return fresh(req.headers, { etag: tag });
}
