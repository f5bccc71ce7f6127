import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiPaymentRequiredResponse,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
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

type NamedExamples = Record<string, { summary: string; value: Record<string, unknown> }>;

/** A status's answers, each code its own named example: the general one first, then an API key's own limits. */
function keyLimitExamples(surface: ErrorSurface, examples: Record<number, Record<string, unknown>>): Record<number, NamedExamples> {
  const named = (code: ErrorCode, summary: string, message: string) => ({
    [code]: { summary, value: errorExample(surface, code, message) },
  });
  return {
    401: {
      ...{ [ErrorCode.Unauthorized]: { summary: 'API key missing, invalid or revoked', value: examples[401] } },
      ...named(ErrorCode.KeyExpired, 'The API key’s expires_at has passed', 'api key expired at 2026-12-31T00:00:00.000Z'),
    },
    402: {
      ...{ [ErrorCode.InsufficientQuota]: { summary: 'The account’s balance cannot pay', value: examples[402] } },
      ...named(
        ErrorCode.KeyQuotaExceeded,
        'The API key’s quota_limit would be passed; nothing charged',
        'api key quota exceeded: this key may spend 100000 units in all, 2000 are left and this request costs 6000',
      ),
      ...named(
        ErrorCode.KeyBudgetExceeded,
        'The API key’s budget for its period would be passed; nothing charged',
        'api key budget exceeded: 4000 units left of 10000 per 1d and this request costs 6000; resets at 2026-12-01T00:00:00.000Z',
      ),
    },
    403: {
      ...{ [ErrorCode.Forbidden]: { summary: 'The API key may not use the model', value: examples[403] } },
      ...named(
        ErrorCode.IpNotAllowed,
        'The client address is not on the API key’s allowed_ips',
        'api key may not be used from 198.51.100.7',
      ),
    },
    429: {
      ...{ [ErrorCode.RateLimited]: { summary: 'Provider back-pressure, or the account’s rpm', value: examples[429] } },
      ...named(
        ErrorCode.KeyRateLimited,
        'The API key’s rpm; Retry-After',
        'rate limit reached: this api key may send 60 requests per minute',
      ),
    },
  };
}

/** The 401 of every route an API key opens: missing, invalid or revoked, and expired, each with its example. */
export const ApiKeyUnauthorized = (type: Type<unknown>, surface: ErrorSurface, examples: Record<number, Record<string, unknown>>) =>
  ApiUnauthorizedResponse({
    type,
    description: 'API key missing, invalid or revoked (`unauthorized`), or expired (`key_expired`)',
    examples: keyLimitExamples(surface, examples)[401],
  });

/** The error answers of a video submit (401 and 404 are the controller's, shared with its reads), each with its example. */
export function ApiSubmitErrors(
  type: Type<unknown>,
  examples: Record<number, Record<string, unknown>>,
  surface: ErrorSurface,
): MethodDecorator {
  const byCode = keyLimitExamples(surface, examples);
  return applyDecorators(
    ApiBadRequestResponse({
      type,
      description: 'Invalid request (e.g. `unknown model: <name>`) or refused by the provider; no charge',
      example: examples[400],
    }),
    ApiPaymentRequiredResponse({
      type,
      description: '`insufficient user quota`, or the API key’s `key_quota_exceeded` / `key_budget_exceeded`; no charge',
      examples: byCode[402],
    }),
    ApiForbiddenResponse({
      type,
      description: 'The API key is not allowed to use the model, or not from this address (`ip_not_allowed`)',
      examples: byCode[403],
    }),
    ApiTooManyRequestsResponse({
      type,
      description: 'Provider back-pressure, the account’s rpm, or the API key’s (`key_rate_limited`); Retry-After; no charge',
      examples: byCode[429],
    }),
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
