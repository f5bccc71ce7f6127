import { Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { GammaControlError } from '../families/gamma/control-plane/gamma-control.client';

const logger = new Logger('Verification');

/** Turns a control plane failure into what the client should see; other errors pass through. */
export function toClientError(error: unknown, param?: string): unknown {
  if (!(error instanceof GammaControlError)) return error;
  switch (error.kind) {
    case 'backpressure':
      return new AppError(ErrorCode.RateLimited, `verification provider rate limit reached, retry later (${error.message})`, {
        retryAfterSeconds: error.details.retryAfterSeconds ?? 1,
      });
    case 'channel':
      // The operator's configuration is at fault, not the caller: say so without details of the keys.
      logger.error(`verification channel problem: ${error.message}`);
      return new AppError(
        ErrorCode.ServiceUnavailable,
        'verification provider refused the gateway (channel configuration problem), retry later',
        {
          retryAfterSeconds: 30,
        },
      );
    case 'transient':
      return new AppError(ErrorCode.ServiceUnavailable, 'verification provider unavailable, retry later', { retryAfterSeconds: 5 });
    default:
      return AppError.invalid(`verification provider refused the request: ${error.message}`, param);
  }
}

/** A provider answer meaning "no such thing" (an expired token, an already deleted asset). */
export const isNotFoundAnswer = (error: unknown): boolean =>
  error instanceof GammaControlError &&
  error.kind === 'invalid_input' &&
  (error.details.httpStatus === 404 || /NotFound|NotExist|Invalid.*Token|Expired/i.test(error.code ?? ''));
