import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { newUuid } from '../runtime/random-id';
import type { IdentifiedRequest } from './request-context';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the log line needs once the response is done, kept on the response (one shared 'finish' listener, no closure per request). */
const LOG_STATE = Symbol('requestLog');
interface LoggedResponse extends Response {
  [LOG_STATE]: { logger: pino.Logger; started: number };
}

/**
 * Gives every request its `x-request-id` (the caller's, when it is sane) and writes one structured
 * log line when the response finishes: request id, key id, user id, route, path, status, latency (at
 * debug for the embedded simulator's routes).
 */
export function requestLogging(logger: pino.Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : newUuid();
    (req as IdentifiedRequest).requestId = requestId;
    res.setHeader('x-request-id', requestId);
    (res as LoggedResponse)[LOG_STATE] = { logger, started: performance.now() };
    res.on('finish', logFinishedRequest);
    next();
  };
}

/** A provider's callback path ends with its token, a credential: logged without it. */
const CALLBACK_TOKEN = /^(\/v1\/provider-callbacks\/[^/]+\/).+$/;

function logFinishedRequest(this: LoggedResponse): void {
  const { logger, started } = this[LOG_STATE];
  const req = this.req as IdentifiedRequest;
  const path = req.path.replace(CALLBACK_TOKEN, '$1***');
  // The embedded simulator is the gateway talking to itself (polls, sample media): debug, not info.
  const level = path.startsWith('/simulator/') ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level]({
    request_id: req.requestId,
    key_id: req.apiKey?.id ?? null,
    user_id: req.user?.id ?? null,
    method: req.method,
    // The route's pattern once a route answered, else the path.
    route: (req.route?.path as string | undefined) ?? path,
    path,
    status: this.statusCode,
    // Whole microseconds, in milliseconds.
    latency_ms: Math.floor((performance.now() - started) * 1000) / 1000,
  });
}
