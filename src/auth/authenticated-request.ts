import type { IdentifiedRequest } from '../common/http/request-context';
import type { ApiKeyEntity } from './api-key.entity';
import type { UserEntity } from './user.entity';

/** What the auth guards attach to a request. */
export interface AuthenticatedRequest extends IdentifiedRequest {
  user?: UserEntity;
  apiKey?: ApiKeyEntity;
}
