import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { errorBody, surfaceForPath, toAppError } from './error-body';

/** Writes any error as the body shape of the surface the request came in on. */
export function sendError(error: unknown, req: Request, res: Response): void {
  const appError = toAppError(error);
  if (appError.status >= 500) new Logger('Errors').error(`${req.method} ${req.originalUrl}: ${(error as Error)?.stack ?? error}`);
  if (res.headersSent) {
    res.end();
    return;
  }
  if (appError.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(appError.options.retryAfterSeconds));
  res.status(appError.status).json(errorBody(appError, surfaceForPath(req.path)));
}

/** The one filter: domain codes to HTTP status and body shape. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(exception, http.getRequest<Request>(), http.getResponse<Response>());
  }
}

/** Express error middleware for errors raised before Nest routing (body parsers). */
export const expressErrorHandler = (error: unknown, req: Request, res: Response, _next: NextFunction): void => sendError(error, req, res);
