import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { findPage } from '../database/find-page';
import { JoinedShape, LeanReads } from '../database/lean-reads';
import { changedRows } from '../database/lean-writes';
import { lockRow } from '../database/row-locks';
import { TransactionRunner } from '../database/transaction-runner';
import { ApiKeyEntity } from './api-key.entity';
import { KEY_LIMIT_COLUMNS, KeyLimitColumn } from './api-key.repository';
import { UserEntity } from './user.entity';

/** What a quote reads of the account: its balance alone. */
const BALANCE_COLUMNS = ['quota'] as const;
/** A quote's fresh read: the account's balance and one of its keys' limits, in one statement. */
const BALANCE_AND_KEY_LIMITS: JoinedShape<UserEntity, ApiKeyEntity> = {
  row: { entity: UserEntity, where: 'r.id = ?', properties: BALANCE_COLUMNS },
  joined: { entity: ApiKeyEntity, on: 'j.id = ?', properties: KEY_LIMIT_COLUMNS },
};

// The statements of every charge, hold and refund, written once (see lean-writes.ts); the same on every database.
const MOVE_TO_USED_SQL = 'UPDATE users SET quota = quota - ?, used_quota = used_quota + ?, updated_at = ? WHERE id = ? AND quota >= ?';
const BALANCE_SQL = 'SELECT quota FROM users WHERE id = ?';

/**
 * The accounts (`users`, which only AuthModule reads and writes) behind intention-revealing methods.
 * The balance moves here too, each one conditional UPDATE that cannot overdraw nor pass a bound;
 * billing's ledger calls them inside its own transaction, so a balance change and its ledger row
 * commit together.
 */
@Injectable()
export class UserRepository {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly transactions: TransactionRunner,
    private readonly reads: LeanReads,
  ) {}

  /** The account's balance as it is now, read lean (a quote's check: no transaction, on SQLite the read-only connection); null without the account. */
  async currentQuota(id: number): Promise<number | null> {
    return (await this.reads.findOne(UserEntity, 'id = ?', [id], BALANCE_COLUMNS))?.quota ?? null;
  }

  /**
   * What a quote reads fresh, in one statement: the account's balance and the limits and spending
   * of its key `keyId` (null without such a key); null without the account.
   */
  async currentQuotaAndKeyLimits(
    id: number,
    keyId: number,
  ): Promise<{ quota: number; keyLimits: Pick<ApiKeyEntity, KeyLimitColumn> | null } | null> {
    const read = await this.reads.findOneJoined(BALANCE_AND_KEY_LIMITS, [id], [keyId]);
    return read && { quota: read.row.quota, keyLimits: read.joined };
  }

  /** Inserts a new account; a taken username fails with the database's unique-key violation. */
  insert(user: Omit<UserEntity, 'id'>): Promise<UserEntity> {
    return this.transactions.run((manager) => manager.save(manager.create(UserEntity, user)));
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findOne({ where: { id } });
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { username } });
  }

  /** One page of accounts, oldest first, and how many there are. */
  page(page: number, pageSize: number): Promise<{ data: UserEntity[]; total: number }> {
    return findPage(this.users, {}, { page, pageSize }, { id: 'ASC' });
  }

  async update(id: number, changes: Partial<UserEntity>): Promise<void> {
    await this.transactions.run((manager) => manager.update(UserEntity, { id }, changes));
  }

  /** Username by user id, for the ids that exist. */
  async usernamesOf(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const users = await this.users.find({ select: { id: true, username: true }, where: { id: In([...new Set(ids)]) } });
    return new Map(users.map((user) => [user.id, user.username]));
  }

  count(): Promise<number> {
    return this.users.count();
  }

  /** Inside the caller's transaction: turns verification on. */
  async enableVerification(manager: EntityManager, id: number, now: number): Promise<void> {
    await manager.update(UserEntity, { id }, { verificationEnabled: true, updatedAt: now });
  }

  /** Holds the account's row until the caller's transaction ends (a check and the write it allows, one at a time per account). */
  lock(manager: EntityManager, id: number): Promise<void> {
    return lockRow(manager, 'users', id);
  }

  /** Inside the caller's transaction: whether the account exists. */
  exists(manager: EntityManager, id: number): Promise<boolean> {
    return manager.exists(UserEntity, { where: { id } });
  }

  /**
   * Inside the caller's transaction: moves `amount` from the balance to used quota, in one
   * conditional UPDATE that never takes the balance below zero; false when it would have (nothing moved).
   */
  async chargeIfEnough(manager: EntityManager, id: number, amount: number, now: number): Promise<boolean> {
    return (await changedRows(manager, MOVE_TO_USED_SQL, [amount, amount, now, id, amount])) > 0;
  }

  /** Inside the caller's transaction: moves `amount` back from used quota to the balance (a refund, a released hold). */
  async refund(manager: EntityManager, id: number, amount: number, now: number): Promise<void> {
    await changedRows(manager, MOVE_TO_USED_SQL, [-amount, -amount, now, id, -amount]);
  }

  /** Inside the caller's transaction: the balance as this transaction sees it (what a ledger row records after its move). */
  async balanceOf(manager: EntityManager, id: number): Promise<number> {
    const [balance] = await manager.query<Array<{ quota: string | number }>>(BALANCE_SQL, [id]);
    return Number(balance?.quota ?? 0);
  }

  /**
   * Inside the caller's transaction: adds `quota` (positive) to the balance unless quota plus used
   * quota would pass `maxBalance`; false when it would have, or when there is no such account.
   */
  async addUpTo(manager: EntityManager, id: number, quota: number, maxBalance: number, now: number): Promise<boolean> {
    const updated = await manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ quota: () => 'quota + :amount', updatedAt: now })
      .where('id = :userId AND quota + used_quota <= :headroom')
      .setParameters({ amount: quota, userId: id, headroom: maxBalance - quota })
      .execute();
    return !!updated.affected;
  }

  /**
   * Inside the caller's transaction: adds a signed `delta` to the balance, never below zero nor (a
   * positive delta) past `maxBalance` for quota plus used quota; false when it would have, or when
   * there is no such account.
   */
  async adjustWithin(manager: EntityManager, id: number, delta: number, maxBalance: number, now: number): Promise<boolean> {
    // A negative delta lowers the sum, so only a positive one needs the upper bound.
    const bound = delta > 0 ? 'quota + used_quota <= :headroom' : 'quota + :delta >= 0';
    const updated = await manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ quota: () => 'quota + :delta', updatedAt: now })
      .where(`id = :userId AND ${bound}`)
      .setParameters({ delta, userId: id, headroom: maxBalance - Math.max(delta, 0) })
      .execute();
    return !!updated.affected;
  }
}
