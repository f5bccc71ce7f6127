import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { newUuid } from './random-id';
import type { AuthenticatedRequest } from './request-context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an `x-request-id` (the caller's, when it is sane) and writes one
 * structured log line when the response finishes: request id, key id, route, status, latency
 * (at debug for the embedded simulator's routes).
 */
export function requestLogging(logger: pino.Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : newUuid();
    (req as AuthenticatedRequest).requestId = requestId;
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const authed = req as AuthenticatedRequest;
      // The embedded simulator is the gateway talking to itself (polls, sample media): debug, not info.
      const level = req.path.startsWith('/simulator/') ? 'debug' : 'info';
      logger[level]({
        request_id: requestId,
        key_id: authed.apiKey?.id ?? null,
        user_id: authed.user?.id ?? null,
        method: req.method,
        route: (req.route?.path as string | undefined) ?? req.path,
        path: req.path,
        status: res.statusCode,
        latency_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    next();
  };
}
