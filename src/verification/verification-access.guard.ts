import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { verificationNotEnabled } from '../families/gamma/gamma-asset-check';
import type { AuthenticatedRequest } from '../auth/authenticated-request';

/** After ApiKeyGuard: only accounts whose verification an admin approved may use the capability. */
@Injectable()
export class VerificationAccessGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (req.user?.verificationEnabled) return true;
    throw verificationNotEnabled();
  }
}
