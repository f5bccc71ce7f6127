import type { Request } from 'express';
import type { ApiKeyEntity } from '../../auth/api-key.entity';
import type { UserEntity } from '../../auth/user.entity';

/** What the auth guards attach to a request. */
export interface AuthenticatedRequest extends Request {
  requestId: string;
  user?: UserEntity;
  apiKey?: ApiKeyEntity;
  isAdmin?: boolean;
}
