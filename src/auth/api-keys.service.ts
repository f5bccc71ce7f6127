import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { newApiKey } from '../common/runtime/random-id';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyLastUsed } from './api-key-last-used';
import { hashApiKey } from './api-key-hash';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { assertKeyUsable, type ClientAddress } from './key-access';
import { KeyRefusals } from './key-refusals';
import { KeyLimitsInput, keyLimitColumns } from './key-limit-changes';
import { ApiKeyView, toApiKeyView } from './api-key.view';
import type { UserEntity } from './user.entity';
import { UsersService } from './users.service';

export interface IssuedKey {
  apiKey: ApiKeyEntity;
  /** The plain key: returned once, never stored. */
  key: string;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly users: UsersService,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
    private readonly lastUsed: ApiKeyLastUsed,
    private readonly refusals: KeyRefusals,
  ) {}

  async issue(userId: number, name: string, models?: string[] | null, limits: KeyLimitsInput = {}): Promise<IssuedKey> {
    if (!(await this.users.findById(userId))) throw AppError.notFound(`user ${userId} not found`);
    const key = newApiKey();
    const now = this.clock.now();
    const limitColumns = keyLimitColumns(limits, null, now);
    const apiKey = await this.keys.insert({
      userId,
      name,
      keyHash: hashApiKey(key),
      keyHint: `${key.slice(0, 7)}...`,
      models: models && models.length > 0 ? models : null,
      status: 'active',
      createdAt: now,
      revokedAt: null,
      quotaLimit: null,
      usedQuota: 0,
      budget: null,
      budgetPeriod: null,
      budgetUsed: 0,
      budgetPeriodStart: null,
      expiresAt: null,
      allowedIps: null,
      rpm: 0,
      lastUsedAt: null,
      ...limitColumns,
    });
    return { apiKey, key };
  }

  /** The names of these keys (revoked ones too), by id; with `userId`, only that user's keys. */
  namesOf(ids: number[], userId?: number): Promise<Map<number, string>> {
    return this.keys.namesOf(ids, userId);
  }

  listForUser(userId: number): Promise<ApiKeyEntity[]> {
    return this.keys.listForUser(userId);
  }

  /** Changes a key's name, models and limits; `ownerId` restricts it to the key's owner (customer console). */
  async update(
    keyId: number,
    changes: KeyLimitsInput & { name?: string; models?: string[] | null },
    ownerId?: number,
  ): Promise<ApiKeyEntity> {
    const apiKey = await this.keys.findById(keyId);
    if (!apiKey || (ownerId !== undefined && apiKey.userId !== ownerId)) throw AppError.notFound(`key ${keyId} not found`);
    const columns: Partial<ApiKeyEntity> = keyLimitColumns(changes, apiKey, this.clock.now());
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.models !== undefined) columns.models = changes.models && changes.models.length > 0 ? changes.models : null;
    if (Object.keys(columns).length > 0) {
      await this.keys.update(keyId, columns);
      // Every instance reads the new limits on the key's next use.
      this.cache.forgetKey(apiKey.keyHash);
    }
    return (await this.keys.findById(keyId))!;
  }

  /** A key's view with its use now (its budget's period worked out on this instance's clock). */
  view(apiKey: ApiKeyEntity): ApiKeyView {
    return toApiKeyView(apiKey, this.clock.now());
  }

  /** Revokes a key; `ownerId` restricts it to the key's owner (customer console). */
  async revoke(keyId: number, ownerId?: number): Promise<ApiKeyEntity> {
    const apiKey = await this.keys.findById(keyId);
    if (!apiKey || (ownerId !== undefined && apiKey.userId !== ownerId)) throw AppError.notFound(`key ${keyId} not found`);
    if (apiKey.status !== 'revoked') {
      await this.keys.revoke(keyId, this.clock.now());
    }
    this.cache.forgetKey(apiKey.keyHash);
    return (await this.keys.findById(keyId))!;
  }

  /**
   * Resolves a bearer key to its key and user, from the short-lived cache when possible.
   * 401 for an unknown, revoked, expired or disabled key (or user); 403 from an address the key's
   * allowlist leaves out (expiry and allowlist are read from the cached row on every use). A cached
   * key is answered at once, not through a promise: the key check of every API call then costs no
   * extra turn of the event loop.
   */
  authenticate(plainKey: string, clientAddress?: ClientAddress): Caller | Promise<Caller> {
    const keyHash = hashApiKey(plainKey);
    const now = this.clock.now();
    const cached = this.cache.get(keyHash, now);
    return cached ? this.usable(cached, now, clientAddress) : this.lookUp(keyHash, now, clientAddress);
  }

  private async lookUp(keyHash: string, now: number, clientAddress?: ClientAddress): Promise<Caller> {
    const generation = this.cache.generation;
    const apiKey = await this.keys.findByHash(keyHash);
    const user = apiKey ? await this.users.findById(apiKey.userId) : null;
    if (!apiKey || !user) throw new AppError(ErrorCode.Unauthorized, 'invalid api key');
    this.cache.set(keyHash, apiKey, user, now, generation);
    return this.usable({ apiKey, user }, now, clientAddress);
  }

  /** The caller, once its key and account are active and the key's expiry and allowlist let it in (a refusal is logged). */
  private usable(found: Caller, now: number, clientAddress?: ClientAddress): Caller {
    const caller = checkedCaller(found);
    try {
      assertKeyUsable(caller.apiKey, now, clientAddress);
    } catch (error) {
      const { code, message } = error as AppError;
      this.refusals.report({ userId: caller.user.id, apiKeyId: caller.apiKey.id, code, message });
      throw error;
    }
    this.lastUsed.touch(caller.apiKey, now);
    return caller;
  }
}

/** Who an API key speaks for. */
export interface Caller {
  apiKey: ApiKeyEntity;
  user: UserEntity;
}

/** 401 for a revoked key or a disabled account; else the caller (the cache entry itself: nothing is copied per request). */
function checkedCaller(found: Caller): Caller {
  if (found.apiKey.status !== 'active') throw new AppError(ErrorCode.Unauthorized, 'api key has been revoked');
  if (found.user.status !== 'active') throw new AppError(ErrorCode.Unauthorized, 'account is disabled');
  return found;
}

/** The 403 of a key whose allowlist does not name the model (ModelCatalog.allows decides). */
export function modelNotAllowed(model: string): AppError {
  return new AppError(ErrorCode.Forbidden, `api key is not allowed to use model ${model}`, { param: 'model' });
}
