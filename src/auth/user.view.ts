import type { ApiKeyEntity } from './api-key.entity';
import type { UserEntity } from './user.entity';

export const toUserView = (user: UserEntity) => ({
  id: user.id,
  username: user.username,
  group: user.group,
  role: user.role,
  quota: user.quota,
  used_quota: user.usedQuota,
  status: user.status,
  verification_enabled: user.verificationEnabled,
  rpm: user.rpm,
  created_at: Math.floor(user.createdAt / 1000),
});

/** A key as listed: never the key itself, only its hint. */
export const toApiKeyView = (key: ApiKeyEntity) => ({
  id: key.id,
  user_id: key.userId,
  name: key.name,
  key_hint: key.keyHint,
  models: key.models,
  status: key.status,
  created_at: Math.floor(key.createdAt / 1000),
  revoked_at: key.revokedAt ? Math.floor(key.revokedAt / 1000) : null,
});
