import type { ApiKeyEntity } from './api-key.entity';
import type { UserEntity } from './user.entity';

/** Who asks: the account, and the API key it came with (none for the console's own calls). */
export interface Caller {
  user: UserEntity;
  apiKey?: ApiKeyEntity | null;
}
