import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
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
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    // The health check's own report (which dependency is down) is what monitors read.
    if (req.path === '/health' && exception instanceof HttpException) {
      res.status(exception.getStatus()).json(exception.getResponse());
      return;
    }
    sendError(exception, req, res);
  }
}

/** Express error middleware for errors raised before Nest routing (body parsers). */
export const expressErrorHandler = (error: unknown, req: Request, res: Response, _next: NextFunction): void => sendError(error, req, res);
