import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/app-error';
import type { AuthenticatedRequest } from '../common/request-context';
import { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer';

/** `Authorization: Bearer sk-...` on the video and verification endpoints; 401 otherwise. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly apiKeys: ApiKeysService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(req);
    if (!token) throw new AppError(ErrorCode.Unauthorized, 'missing api key: send Authorization: Bearer <API_KEY>');
    const { apiKey, user } = await this.apiKeys.authenticate(token);
    req.apiKey = apiKey;
    req.user = user;
    return true;
  }
}
