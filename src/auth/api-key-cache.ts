import { Injectable } from '@nestjs/common';
import type { ApiKeyEntity } from './api-key.entity';
import type { UserEntity } from './user.entity';

export interface CachedKey {
  apiKey: ApiKeyEntity;
  user: UserEntity;
  expiresAt: number;
}

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Short-lived cache of key lookups so the hot path skips a database round trip.
 * Revoking a key or disabling a user clears its entries here; other instances see it within the TTL.
 * Balances are never read from here: charging is a conditional update in the database.
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, CachedKey>();

  get(keyHash: string, now: number): CachedKey | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry;
  }

  set(keyHash: string, apiKey: ApiKeyEntity, user: UserEntity, now: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { apiKey, user, expiresAt: now + TTL_MS });
  }

  forgetKey(keyHash: string): void {
    this.entries.delete(keyHash);
  }

  forgetUser(userId: number): void {
    for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
  }
}
