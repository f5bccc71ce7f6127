import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error';
import type { AuthenticatedRequest } from '../common/request-context';
import { AccountRateLimiter } from './account-rate-limiter';
import { ApiKeysService } from './api-keys.service';
import { MISSING_API_KEY } from './authenticate-before-body.middleware';
import { bearerToken } from './bearer';

/** `Authorization: Bearer sk-...` on the video and verification endpoints; 401 otherwise. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly accountLimits: AccountRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Already authenticated before the body was read (authenticateApiKeyBeforeBody).
    if (req.apiKey && req.user) return true;
    const token = bearerToken(req);
    if (!token) throw new AppError(ErrorCode.Unauthorized, MISSING_API_KEY);
    const { apiKey, user } = await this.apiKeys.authenticate(token);
    await this.accountLimits.admit(user);
    req.apiKey = apiKey;
    req.user = user;
    return true;
  }
}
