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
