import { HttpException } from '@nestjs/common';
import { isDatabaseUnavailable } from './database-errors';
import { AppError, ErrorCode, HTTP_STATUS_BY_CODE } from './app-error';

/** How long a client is asked to wait when the database cannot serve. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The general code of each status: the first one listed for it (400 is `invalid_request`, not a more specific 400). */
const CODE_BY_STATUS: Record<number, ErrorCode> = Object.fromEntries(
  Object.entries(HTTP_STATUS_BY_CODE)
    .reverse()
    .map(([code, status]) => [status, code as ErrorCode]),
);

const OPENAI_TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'invalid_request_error',
  409: 'invalid_request_error',
  410: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** Turns anything thrown into an AppError: domain errors as they are, framework and parser errors by status. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    return new AppError(ErrorCode.ServiceUnavailable, 'the service is temporarily unavailable, retry later', {
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse() as string | { message?: string | string[] };
    const raw = typeof response === 'string' ? response : response?.message;
    const message = Array.isArray(raw) ? raw[0] : (raw ?? error.message);
    return new AppError(CODE_BY_STATUS[status] ?? (status >= 500 ? ErrorCode.Internal : ErrorCode.InvalidRequest), message);
  }
  // body-parser and multer errors carry a status (and a type) of their own.
  const withStatus = error as { status?: number; statusCode?: number; type?: string; code?: string; message?: string; field?: string };
  const status = withStatus?.status ?? withStatus?.statusCode;
  if (withStatus?.type === 'entity.too.large' || withStatus?.code === 'LIMIT_FILE_SIZE' || status === 413) {
    return new AppError(ErrorCode.PayloadTooLarge, 'request body too large', { param: withStatus?.field });
  }
  if (withStatus?.type === 'entity.parse.failed') return new AppError(ErrorCode.InvalidRequest, 'request body is not valid JSON');
  if (status && status >= 400 && status < 500) {
    return new AppError(CODE_BY_STATUS[status] ?? ErrorCode.InvalidRequest, withStatus.message ?? 'bad request', {
      param: withStatus?.field,
    });
  }
  return new AppError(ErrorCode.Internal, 'internal server error');
}

export type ErrorSurface = 'openai' | 'wrapper';

/** `/v1/video/generations` answers in the unified wrapper; everything else in OpenAI's shape. */
export const surfaceForPath = (path: string): ErrorSurface => (path.startsWith('/v1/video/generations') ? 'wrapper' : 'openai');

export function errorBody(error: AppError, surface: ErrorSurface): Record<string, unknown> {
  if (surface === 'wrapper') return { code: error.code, message: error.message, data: null };
  return {
    error: {
      message: error.message,
      type: OPENAI_TYPE_BY_STATUS[error.status] ?? 'server_error',
      param: error.options.param ?? null,
      code: error.code,
      ...(error.options.fields ? { fields: error.options.fields } : {}),
    },
  };
}
