import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { newUuid } from './random-id';
import type { AuthenticatedRequest } from './request-context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request its `x-request-id` (the caller's, when it is sane) and writes one structured
 * log line when the response finishes: request id, key id, user id, route, path, status, latency (at
 * debug for the embedded simulator's routes).
 */
export function requestLogging(logger: pino.Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const authed = req as AuthenticatedRequest;
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : newUuid();
    authed.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const path = req.path;
      // The embedded simulator is the gateway talking to itself (polls, sample media): debug, not info.
      const level = path.startsWith('/simulator/') ? 'debug' : 'info';
      logger[level]({
        request_id: requestId,
        key_id: authed.apiKey?.id ?? null,
        user_id: authed.user?.id ?? null,
        method: req.method,
        // The route's pattern once a route answered, else the path.
        route: (req.route?.path as string | undefined) ?? path,
        path,
        status: res.statusCode,
        latency_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    next();
  };
}
