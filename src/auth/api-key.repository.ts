import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { LeanReads } from '../database/lean-reads';
import { TransactionRunner } from '../database/transaction-runner';
import { ApiKeyEntity } from './api-key.entity';

/** The columns a key's limits are checked from. */
export const KEY_LIMIT_COLUMNS = ['quotaLimit', 'usedQuota', 'budget', 'budgetUsed', 'budgetPeriod', 'budgetPeriodStart'] as const;
export type KeyLimitColumn = (typeof KEY_LIMIT_COLUMNS)[number];

/**
 * The API keys (`api_keys`, which only AuthModule reads and writes) behind intention-revealing
 * methods. A key's spending moves inside the ledger's transaction, each one conditional UPDATE.
 */
@Injectable()
export class ApiKeyRepository {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly transactions: TransactionRunner,
    private readonly reads: LeanReads,
  ) {}

  insert(key: Omit<ApiKeyEntity, 'id'>): Promise<ApiKeyEntity> {
    return this.transactions.run((manager) => manager.save(manager.create(ApiKeyEntity, key)));
  }

  findById(id: number): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({ where: { id } });
  }

  /** The key with this hash: a lean read, as every request whose key is not cached makes it. */
  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.reads.findOne(ApiKeyEntity, 'key_hash = ?', [keyHash]);
  }

  listForUser(userId: number): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { userId }, order: { id: 'ASC' } });
  }

  /** The names of these keys (revoked ones too), by id; `userId` keeps only that user's. */
  async namesOf(ids: number[], userId?: number): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.keys.find({
      select: { id: true, name: true },
      where: { id: In(ids), ...(userId !== undefined ? { userId } : {}) },
    });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async update(id: number, columns: Partial<ApiKeyEntity>): Promise<void> {
    await this.transactions.run((manager) => manager.update(ApiKeyEntity, { id }, columns));
  }

  async revoke(id: number, now: number): Promise<void> {
    await this.transactions.run((manager) => manager.update(ApiKeyEntity, { id }, { status: 'revoked', revokedAt: now }));
  }

  /** When the key was last used (a write outside any transaction). */
  async touchLastUsed(id: number, now: number): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: now });
  }

  /** Inside the caller's transaction: the key as committed (why a spend was refused). */
  findIn(manager: EntityManager, id: number): Promise<ApiKeyEntity | null> {
    return manager.findOne(ApiKeyEntity, { where: { id } });
  }

  /**
   * Inside the caller's transaction: counts `quota` against the key in one conditional UPDATE that
   * can never take it past its quota_limit or its budget, rolling the budget into a new period when
   * the stored one started before `periodStart`. False (nothing counted) when it would have passed one.
   */
  async spendWithinLimits(manager: EntityManager, id: number, quota: number, periodStart: number): Promise<boolean> {
    const rolled = 'budget_period_start IS NOT NULL AND budget_period_start < :periodStart';
    const updated = await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({
        usedQuota: () => 'used_quota + :quota',
        // budget_used before budget_period_start: MySQL reads columns already assigned in this SET.
        budgetUsed: () => `CASE WHEN ${rolled} THEN :quota ELSE budget_used + :quota END`,
        budgetPeriodStart: () => `CASE WHEN ${rolled} THEN :periodStart ELSE budget_period_start END`,
      })
      .where('id = :id AND (quota_limit IS NULL OR used_quota + :quota <= quota_limit)')
      .andWhere(`(budget IS NULL OR (CASE WHEN ${rolled} THEN 0 ELSE budget_used END) + :quota <= budget)`)
      .setParameters({ id, quota, periodStart })
      .execute();
    return !!updated.affected;
  }

  /**
   * Inside the caller's transaction: gives `quota` back to the key, to used_quota always, and to
   * budget_used when it was spent in the current period (charged at `chargedAt`).
   */
  async giveBack(manager: EntityManager, id: number, quota: number, chargedAt: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({
        usedQuota: () => 'CASE WHEN used_quota >= :quota THEN used_quota - :quota ELSE 0 END',
        budgetUsed: () =>
          'CASE WHEN budget_period_start IS NULL OR budget_period_start > :chargedAt THEN budget_used WHEN budget_used >= :quota THEN budget_used - :quota ELSE 0 END',
      })
      .where('id = :id')
      .setParameters({ id, quota, chargedAt })
      .execute();
  }
}
