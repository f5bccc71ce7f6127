import type { Response } from 'express';
import fresh from 'fresh';
import { hash } from 'node:crypto';

/** Express's `req.fresh` looks at these methods only. */
const CONDITIONAL_METHODS = new Set(['GET', 'HEAD', 'QUERY']);
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Every JSON answer of the gateway (the controllers' return values through Nest's adapter, the hot
 * routes, every error body): what Express's `res.status(status).json(body)` writes with the
 * gateway's settings (no JSON replacer, spaces or escaping; the default weak ETag), the same
 * Content-Type, Content-Length and ETag (the `etag` package over the same bytes), 304 to a fresh
 * conditional GET and no body to HEAD. Cheaper than Express's: the body stays a string, so Node
 * sends headers and body in one write instead of a Buffer's second chunk, and the ETag is the `etag`
 * package's, worked out with one hash call over the string (no Buffer copy, no Hash object) and the
 * body's byte length counted once for it and Content-Length.
 * A response whose headers already say something this decides (a type, a tag, a framing; a status
 * that carries no body) is left to Express's own `res.json`, which knows every such case.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const payload = JSON.stringify(body) as string | undefined;
  if (payload === undefined || status === 204 || status === 205 || status === 304 || decidedElsewhere(res)) {
    res.status(status).json(body);
    return;
  }
  const length = Buffer.byteLength(payload, 'utf8');
  const tag = weakTag(payload, length);
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
  res.setHeader('Content-Length', String(length));
  res.setHeader('ETag', tag);
  if (req.method === 'HEAD') res.end();
  else res.end(payload, 'utf8');
}

/**
 * What `etag(payload, { weak: true })` makes of a non-empty string (`etag` 1.8's entitytag): the byte
 * length in hex and the first 27 characters of the SHA-1's base64 (src/http/json-reply.spec.ts
 * compares it with Express's header).
 */
function weakTag(payload: string, length: number): string {
  return `W/"${length.toString(16)}-${hash('sha1', payload, 'base64').substring(0, 27)}"`;
}

function decidedElsewhere(res: Response): boolean {
  return res.hasHeader('content-type') || res.hasHeader('etag') || res.hasHeader('transfer-encoding') || res.hasHeader('last-modified');
}
