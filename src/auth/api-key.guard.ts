import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from './authenticated-request';
import { AccountRateLimiter } from './account-rate-limiter';
import { ApiKeysService } from './api-keys.service';
import { authenticateApiKey } from './authenticate-before-body.middleware';

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
    await authenticateApiKey(req, this.apiKeys, this.accountLimits);
    return true;
  }
}
