import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError, ErrorCode } from './app-error';
import { sendJson } from '../http/json-reply';
import { errorBody, surfaceForPath, toAppError } from './error-body';

/** One line for an expected fault (a 503): the driver's code when there is one, never a stack. */
function faultSummary(error: unknown, appError: AppError): string {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown })?.driverError?.code ?? (error as { code?: unknown })?.code;
  return typeof code === 'string' && !(error instanceof AppError) ? `${appError.message} (${code})` : appError.message;
}

/** What any error answers: its status, Retry-After when it has one, and the body of the request's surface. */
export interface ErrorReply {
  status: number;
  retryAfterSeconds?: number;
  body: Record<string, unknown>;
}

/** Works out the reply to an error on `method path`, and logs what operators should see (faults, never clients' mistakes). */
export function errorReply(error: unknown, method: string, path: string, originalUrl = path): ErrorReply {
  const appError = toAppError(error);
  if (appError.code === ErrorCode.Internal) new Logger('Errors').error(`${method} ${originalUrl}: ${(error as Error)?.stack ?? error}`);
  else if (appError.status >= 500) new Logger('Errors').warn(`${method} ${path}: ${appError.status} ${faultSummary(error, appError)}`);
  return {
    status: appError.status,
    retryAfterSeconds: appError.options.retryAfterSeconds,
    body: errorBody(appError, surfaceForPath(path)),
  };
}

/** Writes any error as the body shape of the surface the request came in on. */
export function sendError(error: unknown, req: Request, res: Response): void {
  const reply = errorReply(error, req.method, req.path, req.originalUrl);
  if (res.headersSent) {
    res.end();
    return;
  }
  if (reply.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(reply.retryAfterSeconds));
  sendJson(res, reply.status, reply.body);
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
