import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import type { AuthenticatedRequest } from '../common/http/request-context';

/** The 403 of an account whose verification is not (or no longer) enabled. */
export const verificationNotEnabled = (): AppError =>
  new AppError(
    ErrorCode.Forbidden,
    'real-person verification is not enabled for this account: file an application at POST /v1/verification/applications and wait for approval',
  );

/** After ApiKeyGuard: only accounts whose verification an admin approved may use the capability. */
@Injectable()
export class VerificationAccessGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (req.user?.verificationEnabled) return true;
    throw verificationNotEnabled();
  }
}
