import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { isUniqueViolation } from '../database/transaction-runner';
import { ApiKeyCache } from './api-key-cache';
import { UserEntity, UserRole, UserStatus } from './user.entity';
import { UserRepository } from './user.repository';

export interface CreateUserInput {
  username: string;
  group?: string;
  role?: UserRole;
  passwordHash?: string | null;
  /** Requests per minute on /v1/* (0 = unlimited). */
  rpm?: number;
}

export interface UpdateUserInput {
  group?: string;
  status?: UserStatus;
  verificationEnabled?: boolean;
  passwordHash?: string | null;
  rpm?: number;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    private readonly keyCache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  /** Creates a user with a zero balance; an opening balance is a top-up, so it is in the ledger. */
  async create(input: CreateUserInput): Promise<UserEntity> {
    const now = this.clock.now();
    try {
      return await this.users.insert({
        username: input.username,
        group: input.group ?? 'default',
        role: input.role ?? 'user',
        status: 'active',
        quota: 0,
        usedQuota: 0,
        verificationEnabled: false,
        passwordHash: input.passwordHash ?? null,
        rpm: input.rpm ?? 0,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(ErrorCode.Conflict, `username ${input.username} is taken`, { param: 'username' });
      throw error;
    }
  }

  async get(id: number): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user) throw AppError.notFound(`user ${id} not found`);
    return user;
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  /**
   * Whether the account exists and is active, read through the key cache: a range request of a
   * signed link skips the database, and a disabled account is seen as soon as its keys are.
   */
  async isActive(id: number): Promise<boolean> {
    const now = this.clock.now();
    const cached = this.keyCache.getAccount(id, now);
    if (cached) return cached.status === 'active';
    const generation = this.keyCache.generation;
    const user = await this.findById(id);
    if (user) this.keyCache.setAccount(user, now, generation);
    return user?.status === 'active';
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.users.findByUsername(username);
  }

  async list(page: number, pageSize: number): Promise<{ data: UserEntity[]; total: number }> {
    return this.users.page(page, pageSize);
  }

  async update(id: number, input: UpdateUserInput): Promise<UserEntity> {
    await this.get(id);
    const changes: Partial<UserEntity> = { updatedAt: this.clock.now() };
    if (input.group !== undefined) changes.group = input.group;
    if (input.status !== undefined) changes.status = input.status;
    if (input.verificationEnabled !== undefined) changes.verificationEnabled = input.verificationEnabled;
    if (input.passwordHash !== undefined) changes.passwordHash = input.passwordHash;
    if (input.rpm !== undefined) changes.rpm = input.rpm;
    await this.users.update(id, changes);
    this.keyCache.forgetUser(id);
    return this.get(id);
  }

  /** Username by user id, for the ids that exist. */
  usernamesOf(ids: number[]): Promise<Map<number, string>> {
    return this.users.usernamesOf(ids);
  }

  /** Turns verification on for a user inside the caller's transaction; call forgetCached(id) once it committed. */
  async enableVerificationInTransaction(manager: EntityManager, id: number): Promise<void> {
    await this.users.enableVerification(manager, id, this.clock.now());
  }

  /**
   * Holds the user's row until the caller's transaction ends: a check of what the account has (its
   * webhook endpoints) and the write it allows then run one at a time per account, on any instance.
   */
  lockInTransaction(manager: EntityManager, id: number): Promise<void> {
    return this.users.lock(manager, id);
  }

  /** The key cache holds user rows: the next request must see what changed. */
  forgetCached(id: number): void {
    this.keyCache.forgetUser(id);
  }

  count(): Promise<number> {
    return this.users.count();
  }
}
