import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import type { AuthenticatedRequest } from './authenticated-request';
import { AdminTokenService } from './admin-token.service';
import { bearerToken } from '../common/http/bearer';

/**
 * Admin API access: `Authorization: Bearer <ADMIN_TOKEN>`, or a request an earlier guard or
 * middleware (the console session) already marked as an admin's.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly adminToken: AdminTokenService) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (req.isAdmin) return true;
    const token = bearerToken(req);
    if (!token) throw new AppError(ErrorCode.Unauthorized, 'missing admin token');
    if (!this.adminToken.matches(token)) throw new AppError(ErrorCode.Unauthorized, 'invalid admin token');
    req.isAdmin = true;
    return true;
  }
}
