/** Domain error codes; the one exception filter maps each to an HTTP status and each surface's body. */
export enum ErrorCode {
  InvalidRequest = 'invalid_request',
  /** A submit that has passed through more gateways than MAX_GATEWAY_HOPS (a chain that loops back). */
  TooManyGatewayHops = 'too_many_gateway_hops',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  InsufficientQuota = 'insufficient_quota',
  NotFound = 'not_found',
  Conflict = 'conflict',
  /** A cancel of a task its provider cannot (or no longer can) cancel; the task goes on. */
  CancelNotSupported = 'cancel_not_supported',
  /** A resource that existed and never will again: the general 410, what a 410 without a more specific code says. */
  Gone = 'gone',
  /** A model past its sunset, or retired: the answer names its replacement. */
  ModelRetired = 'model_retired',
  /**
   * A completed task's video is gone for good: its provider discarded it (its link expired, or it says it
   * no longer has it) before the gateway could keep a copy. Every content route of the video answers it.
   */
  VideoExpired = 'video_expired',
  PayloadTooLarge = 'payload_too_large',
  RateLimited = 'rate_limited',
  ServiceUnavailable = 'service_unavailable',
  Internal = 'internal_error',
  // An API key's own limits (listed after the general code of their status, which stays the status's default).
  KeyQuotaExceeded = 'key_quota_exceeded',
  KeyBudgetExceeded = 'key_budget_exceeded',
  KeyExpired = 'key_expired',
  IpNotAllowed = 'ip_not_allowed',
  KeyRateLimited = 'key_rate_limited',
}

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.TooManyGatewayHops]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.InsufficientQuota]: 402,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.CancelNotSupported]: 409,
  [ErrorCode.Gone]: 410,
  [ErrorCode.ModelRetired]: 410,
  [ErrorCode.VideoExpired]: 410,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.Internal]: 500,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.KeyQuotaExceeded]: 402,
  [ErrorCode.KeyBudgetExceeded]: 402,
  [ErrorCode.KeyExpired]: 401,
  [ErrorCode.IpNotAllowed]: 403,
  [ErrorCode.KeyRateLimited]: 429,
};

/** One bad field of a request and what is wrong with it. */
export interface FieldProblem {
  param: string;
  message: string;
}

export interface AppErrorOptions {
  /** The request field at fault, reported as OpenAI's `param`. */
  param?: string;
  /** Every bad field, where a 400 found more than one (`param` is the first): the body's `error.fields`. */
  fields?: readonly FieldProblem[];
  /** Seconds, sent as `Retry-After` on 429 and 503. */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: AppErrorOptions = {},
  ) {
    super(message);
  }

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  static invalid(message: string, param?: string): AppError {
    return new AppError(ErrorCode.InvalidRequest, message, { param });
  }

  /** A 400 naming every problem: the messages joined, the first field as `param`, all of them as `fields`. */
  static invalidFields(problems: readonly FieldProblem[]): AppError {
    return new AppError(ErrorCode.InvalidRequest, problems.map((problem) => problem.message).join('; '), {
      param: problems[0]?.param,
      ...(problems.length > 1 ? { fields: problems } : {}),
    });
  }

  static notFound(message = 'not found'): AppError {
    return new AppError(ErrorCode.NotFound, message);
  }
}
