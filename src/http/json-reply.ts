import etag from 'etag';
import type { Response } from 'express';
import fresh from 'fresh';

/** Express's `req.fresh` looks at these methods only. */
const CONDITIONAL_METHODS = new Set(['GET', 'HEAD', 'QUERY']);
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Every JSON answer of the gateway (the controllers' return values through Nest's adapter, the hot
 * routes, every error body): what Express's `res.status(status).json(body)` writes with the
 * gateway's settings (no JSON replacer, spaces or escaping; the default weak ETag), the same
 * Content-Type, Content-Length and ETag (the `etag` package over the same bytes), 304 to a fresh
 * conditional GET and no body to HEAD. Cheaper than Express's: the body stays a string, so Node
 * sends headers and body in one write instead of a Buffer's second chunk, and the ETag hashes the
 * string without copying it into a Buffer first.
 * A response whose headers already say something this decides (a type, a tag, a framing; a status
 * that carries no body) is left to Express's own `res.json`, which knows every such case.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const payload = JSON.stringify(body) as string | undefined;
  if (payload === undefined || status === 204 || status === 205 || status === 304 || decidedElsewhere(res)) {
    res.status(status).json(body);
    return;
  }
  const tag = etag(payload, { weak: true });
  res.statusCode = status;
  const req = res.req;
  if (status >= 200 && status < 300 && CONDITIONAL_METHODS.has(req.method) && fresh(req.headers, { etag: tag })) {
    // As Express: the tag stays, the body and its type and length go.
    res.statusCode = 304;
    res.setHeader('ETag', tag);
    res.end();
    return;
  }
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', String(Buffer.byteLength(payload, 'utf8')));
  res.setHeader('ETag', tag);
  if (req.method === 'HEAD') res.end();
  else res.end(payload, 'utf8');
}

function decidedElsewhere(res: Response): boolean {
  return res.hasHeader('content-type') || res.hasHeader('etag') || res.hasHeader('transfer-encoding') || res.hasHeader('last-modified');
}
