import { Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * A route the fast lane answers itself. `pattern` is matched against the path (the URL before any
 * query), case-insensitively with an optional trailing slash, as Express matches routes; its first
 * group, if it has one, is the route's parameter, URL-decoded. `takes` narrows which of the matching
 * requests the lane answers (the rest go on to Express).
 */
export interface FastRoute {
  method: 'GET' | 'POST';
  pattern: RegExp;
  takes?: (req: IncomingMessage) => boolean;
  handle(req: IncomingMessage, res: ServerResponse, param: string, path: string): Promise<void>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the hot routes (the task polls, the JSON submits) in front of Express and Nest. Polls are
 * most of a gateway's traffic, and Nest's per-request layers (routing, guards, interceptors, the
 * exception filter, response handling) cost several times a poll's own work. A matched route
 * answers here, in full: with the same request id, security headers, request log, authentication,
 * rate limit, body and errors as the Nest route that stays registered behind it (for Swagger, and
 * for requests the lane does not take, such as a HEAD, an undecodable id or a multipart submit).
 */
export function installFastLane(server: Server, routes: FastRoute[]): void {
  const behind = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const passOn: RequestListener = (req, res) => {
    for (const listener of behind) listener.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = matchRoute(routes, req);
    if (!match) return passOn(req, res);
    match.route.handle(req, res, match.param, match.path).catch((error: unknown) => {
      // The routes answer their own errors (as the exception filter would); this only ends a request whose answer itself failed.
      new Logger('FastLane').error(`${req.method} ${match.path}: ${(error as Error)?.stack ?? error}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
}

function matchRoute(routes: FastRoute[], req: IncomingMessage): { route: FastRoute; param: string; path: string } | null {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  for (const route of routes) {
    if (req.method !== route.method) continue;
    const found = route.pattern.exec(path);
    if (!found || (route.takes && !route.takes(req))) continue;
    const param = found[1] === undefined ? '' : decodeParam(found[1]);
    return param === null ? null : { route, param, path };
  }
  return null;
}

/** As Express decodes a route parameter; null when it cannot be (Express then answers 400 itself). */
function decodeParam(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
