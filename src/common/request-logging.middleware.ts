import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { newUuid } from './random-id';
import type { AuthenticatedRequest } from './request-context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the request log line says about who asked and which route answered, known only once the response is done. */
export interface RequestLogFields {
  keyId: number | null;
  userId: number | null;
  route: string;
  path: string;
}

/**
 * Gives a request its `x-request-id` (the caller's, when it is sane) and writes one structured log
 * line when the response finishes: request id, key id, route, status, latency (at debug for the
 * embedded simulator's routes). Returns the request id. Used by the Express middleware below and by
 * the fast lane (src/http/fast-lane.ts), so both log alike.
 */
export function logRequest(logger: pino.Logger, req: IncomingMessage, res: ServerResponse, fields: () => RequestLogFields): string {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : newUuid();
  res.setHeader('x-request-id', requestId);
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const { keyId, userId, route, path } = fields();
    // The embedded simulator is the gateway talking to itself (polls, sample media): debug, not info.
    const level = path.startsWith('/simulator/') ? 'debug' : 'info';
    logger[level]({
      request_id: requestId,
      key_id: keyId,
      user_id: userId,
      method: req.method,
      route,
      path,
      status: res.statusCode,
      latency_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
    });
  });
  return requestId;
}

/** The request log for every request Express routes. */
export function requestLogging(logger: pino.Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const authed = req as AuthenticatedRequest;
    authed.requestId = logRequest(logger, req, res, () => ({
      keyId: authed.apiKey?.id ?? null,
      userId: authed.user?.id ?? null,
      route: (req.route?.path as string | undefined) ?? req.path,
      path: req.path,
    }));
    next();
  };
}
