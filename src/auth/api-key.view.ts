import { toUnixSeconds } from '../common/runtime/clock';
import type { ApiKeyEntity } from './api-key.entity';
import { keyBudgetState } from './key-budget';
import { isKeyExpired } from './key-access';

/** A key as listed: never the key itself, only its hint; its limits with their use at `now`. */
export function toApiKeyView(key: ApiKeyEntity, now: number) {
  const budget = keyBudgetState(key, now);
  return {
    id: key.id,
    user_id: key.userId,
    name: key.name,
    key_hint: key.keyHint,
    models: key.models,
    // An active key past its expires_at refuses every call: it reads `expired`.
    status: key.status === 'active' && isKeyExpired(key, now) ? ('expired' as const) : key.status,
    created_at: Math.floor(key.createdAt / 1000),
    revoked_at: key.revokedAt ? Math.floor(key.revokedAt / 1000) : null,
    quota_limit: key.quotaLimit,
    used_quota: key.usedQuota,
    budget: key.budget,
    budget_period: key.budgetPeriod,
    budget_used: budget ? budget.used : null,
    budget_resets_at: budget ? toUnixSeconds(budget.resetsAt) : null,
    expires_at: key.expiresAt === null ? null : Math.floor(key.expiresAt / 1000),
    allowed_ips: key.allowedIps,
    rpm: key.rpm,
    last_used_at: key.lastUsedAt === null ? null : Math.floor(key.lastUsedAt / 1000),
  };
}

export type ApiKeyView = ReturnType<typeof toApiKeyView>;
