import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** `GET|HEAD /v1/videos/{id}/content?expires=..&signature=..`, seen from the `/v1/videos` mount. */
const CONTENT_PATH = /^\/[^/]+\/content\/?$/;

/** Whether a request presents a signed content link (it then needs no API key; the link is verified by the route). */
export function presentsSignedLink(req: Pick<Request, 'method' | 'query'>): boolean {
  const query = req.query as Record<string, unknown>;
  return (req.method === 'GET' || req.method === 'HEAD') && (query.signature !== undefined || query.expires !== undefined);
}

/** Lets signed content links (a `<video src>` sends no Authorization header) past the API-key check that runs before any body. */
export function exceptSignedContentLinks(authenticate: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (CONTENT_PATH.test(req.path) && presentsSignedLink(req)) return next();
    return authenticate(req, res, next);
  };
}
