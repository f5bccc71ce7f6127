import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RedisConnection } from '../shared-state/redis-connection.service';
import type { ApiKeyEntity } from './api-key.entity';
import type { UserEntity } from './user.entity';

export interface CachedKey {
  apiKey: ApiKeyEntity;
  user: UserEntity;
  expiresAt: number;
}

/** A user row read without a key (a signed content link names only its task's owner). */
interface CachedAccount {
  user: UserEntity;
  expiresAt: number;
}

/** Without REDIS_URL: another instance sees a revocation within this (this one at once). */
const LOCAL_TTL_MS = 5_000;
/** With Redis up, invalidations reach every instance within milliseconds: entries may live longer. */
const SHARED_TTL_MS = 60_000;
/** Redis configured but down: invalidations cannot be sent or heard, so revocations spread by expiry. */
const FALLBACK_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
/** Invalidations made while Redis was down, published once it is back (bounded). */
const MAX_PENDING = 10_000;
/** A publish that failed is tried again this soon (and when Redis returns). */
const RETRY_PUBLISH_MS = 1_000;
/** How often the invalidation counter in Redis is read: the bound on a revocation whose message was lost. */
const VERSION_CHECK_MS = 1_000;

/**
 * Short-lived cache of key lookups (and of accounts by id, for signed content links) so the hot
 * path skips a database round trip.
 * Revoking a key, or changing a user (disabled, group, verification, rate limit), drops the entries
 * here and, with REDIS_URL, on every instance through Redis pub/sub. Entries live 60 s while Redis
 * is up; every instance clears its cache when Redis is lost or returns (it may have missed messages)
 * and caches for 2 s meanwhile; without REDIS_URL entries live 5 s.
 * Balances are never read from here: charging is a conditional update in the database.
 */
@Injectable()
export class ApiKeyCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, CachedKey>();
  private readonly accounts = new Map<number, CachedAccount>();
  private readonly pending: string[] = [];
  private readonly channel: string;
  /** True while this instance hears other instances' invalidations. */
  private subscribed = false;
  /** Counts invalidations (and clears), so a lookup that raced one is not cached. */
  private invalidations = 0;

  /** Counts every invalidation in Redis too: pub/sub delivers at most once, and a subscriber may miss one. */
  private readonly versionKey: string;
  private seenVersion: string | null = null;
  private versionCheck: NodeJS.Timeout | null = null;

  constructor(private readonly redis: RedisConnection) {
    this.channel = `${redis.keyPrefix}api-key-invalidations`;
    this.versionKey = `${redis.keyPrefix}api-key-invalidations:version`;
  }

  onModuleInit(): void {
    const subscriber = this.redis.subscriber;
    if (!subscriber) return;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.apply(message);
    });
    // Until the subscription is confirmed, invalidations may pass unheard: entries live the short TTL,
    // and the cache is cleared once it is confirmed. A reconnected subscriber may have missed some too,
    // and is subscribed again here: ioredis restores a subscription only after a connection that was
    // ready, so one lost while connecting (a busy host) would leave this instance deaf for good.
    const subscribe = () =>
      subscriber
        .subscribe(this.channel)
        .then(() => {
          this.subscribed = true;
          this.clear();
        })
        .catch((error: Error) => this.logger.warn(`cannot subscribe to key invalidations yet: ${error.message}`));
    subscriber.on('ready', () => {
      this.subscribed = false;
      this.clear();
      void subscribe();
    });
    subscriber.on('close', () => (this.subscribed = false));
    if (subscriber.status === 'ready') void subscribe();
    this.versionCheck = setInterval(() => void this.checkVersion(), VERSION_CHECK_MS).unref();
    this.redis.onStateChange((up) => {
      this.clear();
      if (up) this.flushPending();
    });
  }

  onModuleDestroy(): void {
    if (this.versionCheck) clearInterval(this.versionCheck);
  }

  /** A changed counter means an invalidation somewhere, heard or not: start from an empty cache. */
  private async checkVersion(): Promise<void> {
    const client = this.redis.client;
    if (!client || !this.redis.isUp) return;
    // No counter yet reads as 0: the first invalidation ever must count as a change too.
    const version = await client.get(this.versionKey).then(
      (value) => value ?? '0',
      () => undefined,
    );
    if (version === undefined) return;
    if (this.seenVersion !== null && version !== this.seenVersion) this.clear();
    this.seenVersion = version;
  }

  get(keyHash: string, now: number): CachedKey | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry;
  }

  /** Take before reading the database; pass to `set`. */
  get generation(): number {
    return this.invalidations;
  }

  /**
   * Caches a lookup, unless an invalidation arrived since `generation` was taken: the rows read may
   * predate it (a revocation committed during the read), and would otherwise live a whole TTL.
   */
  set(keyHash: string, apiKey: ApiKeyEntity, user: UserEntity, now: number, generation = this.invalidations): void {
    if (generation !== this.invalidations) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { apiKey, user, expiresAt: now + this.ttlMs() });
  }

  /** A user cached by id (no key involved), while fresh; `forgetUser` drops it with the user's keys. */
  getAccount(userId: number, now: number): UserEntity | undefined {
    const entry = this.accounts.get(userId);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.accounts.delete(userId);
      return undefined;
    }
    return entry.user;
  }

  /** Caches a user read by id, under the same rule as `set` (not when an invalidation raced the read). */
  setAccount(user: UserEntity, now: number, generation = this.invalidations): void {
    if (generation !== this.invalidations) return;
    if (this.accounts.size >= MAX_ENTRIES) this.accounts.delete(this.accounts.keys().next().value as number);
    this.accounts.set(user.id, { user, expiresAt: now + this.ttlMs() });
  }

  /** Drops a key here and on every other instance. */
  forgetKey(keyHash: string): void {
    this.apply(`k:${keyHash}`);
    this.publish(`k:${keyHash}`);
  }

  /** Drops every key of a user here and on every other instance. */
  forgetUser(userId: number): void {
    this.apply(`u:${userId}`);
    this.publish(`u:${userId}`);
  }

  private ttlMs(): number {
    if (!this.redis.configured) return LOCAL_TTL_MS;
    return this.redis.isUp && this.subscribed ? SHARED_TTL_MS : FALLBACK_TTL_MS;
  }

  private apply(message: string): void {
    this.invalidations++;
    if (message.startsWith('k:')) {
      this.entries.delete(message.slice(2));
    } else if (message.startsWith('u:')) {
      const userId = Number(message.slice(2));
      for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
      this.accounts.delete(userId);
    }
  }

  private clear(): void {
    this.invalidations++;
    this.entries.clear();
    this.accounts.clear();
  }

  private publish(message: string): void {
    const client = this.redis.client;
    if (!client) return;
    client.incr(this.versionKey).catch(() => undefined);
    client.publish(this.channel, message).catch(() => {
      if (this.pending.length < MAX_PENDING) this.pending.push(message);
      // Redis may never be reported lost (a publish that timed out once): try again shortly.
      setTimeout(() => this.flushPending(), RETRY_PUBLISH_MS).unref();
    });
  }

  private flushPending(): void {
    for (const message of this.pending.splice(0)) this.publish(message);
  }
}
