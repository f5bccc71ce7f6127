import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiPaymentRequiredResponse,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { AppError, ErrorCode } from './app-error';
import { errorBody, ErrorSurface } from './error-body';

/** What a client sees for an error, as the exception filter renders it: the example Swagger shows. */
export const errorExample = (surface: ErrorSurface, code: ErrorCode, message: string, param?: string): Record<string, unknown> =>
  errorBody(new AppError(code, message, { param }), surface);

/**
 * One example per error status of a video submit, in the surface's shape, so that Swagger shows
 * each status with its own answer (the messages are the gateway's own).
 */
export function submitErrorExamples(surface: ErrorSurface, model: string): Record<number, Record<string, unknown>> {
  return {
    400:
      surface === 'wrapper'
        ? errorExample(surface, ErrorCode.InvalidRequest, 'prompt is required', 'prompt')
        : errorExample(surface, ErrorCode.InvalidRequest, 'unknown model: alpha/v7', 'model'),
    401: errorExample(surface, ErrorCode.Unauthorized, 'missing api key: send Authorization: Bearer <API_KEY>'),
    402: errorExample(surface, ErrorCode.InsufficientQuota, 'insufficient user quota'),
    403: errorExample(surface, ErrorCode.Forbidden, `api key is not allowed to use model ${model}`, 'model'),
    404: errorExample(surface, ErrorCode.NotFound, 'task task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ not found'),
    409: errorExample(surface, ErrorCode.Conflict, 'Idempotency-Key was already used with a different request body', 'Idempotency-Key'),
    429: errorExample(surface, ErrorCode.RateLimited, 'upstream concurrency limit reached, retry later'),
    503: errorExample(surface, ErrorCode.ServiceUnavailable, 'upstream channel unavailable, retry later'),
  };
}

/** The error answers of a video submit (401 and 404 are the controller's, shared with its reads), each with its example. */
export function ApiSubmitErrors(type: Type<unknown>, examples: Record<number, Record<string, unknown>>): MethodDecorator {
  return applyDecorators(
    ApiBadRequestResponse({
      type,
      description: 'Invalid request (e.g. `unknown model: <name>`) or refused by the provider; no charge',
      example: examples[400],
    }),
    ApiPaymentRequiredResponse({ type, description: '`insufficient user quota`', example: examples[402] }),
    ApiForbiddenResponse({ type, description: 'The API key is not allowed to use the model', example: examples[403] }),
    ApiTooManyRequestsResponse({ type, description: 'Provider back-pressure; Retry-After; no charge', example: examples[429] }),
    ApiConflictResponse({
      type,
      description: 'Idempotency-Key reused with another body, or its first request still in flight (then with Retry-After); no charge',
      example: examples[409],
    }),
    ApiServiceUnavailableResponse({
      type,
      description: 'No channel serves the model, or every channel failed (then with Retry-After); no charge',
      example: examples[503],
    }),
  );
}
