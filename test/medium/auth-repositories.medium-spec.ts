import type { EntityManager } from 'typeorm';
import { ApiKeyEntity } from '../../src/auth/api-key.entity';
import { ApiKeyRepository } from '../../src/auth/api-key.repository';
import { UserRepository } from '../../src/auth/user.repository';
import { isUniqueViolation } from '../../src/database/transaction-runner';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

const MAX = Number.MAX_SAFE_INTEGER;

/** AuthModule's repositories (users with their balance, API keys with their spending), on each database. */
describeEachDatabase('auth repositories (service tier)', (kind) => {
  let t: ServiceTestContext;
  let users: UserRepository;
  let keys: ApiKeyRepository;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind });
    users = t.module.get(UserRepository);
    keys = t.module.get(ApiKeyRepository);
  });
  afterAll(() => t.close());

  const newUser = (username: string) =>
    users.insert({
      username,
      group: 'default',
      role: 'user',
      status: 'active',
      quota: 0,
      usedQuota: 0,
      verificationEnabled: false,
      passwordHash: null,
      rpm: 0,
      createdAt: 1,
      updatedAt: 1,
    });

  const newKey = (userId: number, keyHash: string, limits: Partial<ApiKeyEntity> = {}) =>
    keys.insert({
      userId,
      name: 'key',
      keyHash,
      keyHint: 'sk-...',
      models: null,
      status: 'active',
      createdAt: 1,
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
      ...limits,
    });

  it('inserts, finds, pages, updates and names accounts; a taken username is a unique violation', async () => {
    const ann = await newUser('ann');
    const bob = await newUser('bob');
    expect(await users.findById(ann.id)).toMatchObject({ username: 'ann', quota: 0 });
    expect((await users.findByUsername('bob'))?.id).toBe(bob.id);
    expect(isUniqueViolation(await newUser('ann').catch((error: unknown) => error))).toBe(true);
    await users.update(bob.id, { group: 'vip', updatedAt: 2 });
    expect(await users.findById(bob.id)).toMatchObject({ group: 'vip', updatedAt: 2 });
    expect(await users.usernamesOf([bob.id, ann.id, bob.id, 999_999])).toEqual(
      new Map([
        [ann.id, 'ann'],
        [bob.id, 'bob'],
      ]),
    );
    const page = await users.page(1, 1);
    expect(page.total).toBe(await users.count());
    expect(page.data.map((user) => user.id)).toEqual([Math.min(ann.id, bob.id)]);
    await t.transactions.run((manager) => users.enableVerification(manager, ann.id, 3));
    expect(await users.findById(ann.id)).toMatchObject({ verificationEnabled: true, updatedAt: 3 });
  });

  it('chargeIfEnough never overdraws, even when charges race; refund gives back; balanceOf reads in the transaction', async () => {
    const user = await t.createUser(1_000);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.transactions.run((manager) => users.chargeIfEnough(manager, user.id, 300, 5))),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    expect(await t.balance(user.id)).toEqual({ quota: 100, usedQuota: 900 });
    expect(await t.transactions.run((manager) => users.chargeIfEnough(manager, user.id, 100, 6))).toBe(true);
    const seen = await t.transactions.run(async (manager) => {
      await users.refund(manager, user.id, 250, 7);
      return users.balanceOf(manager, user.id);
    });
    expect(seen).toBe(250);
    expect(await t.balance(user.id)).toEqual({ quota: 250, usedQuota: 750 });
    expect(await users.findById(user.id)).toMatchObject({ updatedAt: 7 });
  });

  it('a charge rolls back with its transaction', async () => {
    const user = await t.createUser(500);
    await expect(
      t.transactions.run(async (manager) => {
        await users.chargeIfEnough(manager, user.id, 200, 5);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await t.balance(user.id)).toEqual({ quota: 500, usedQuota: 0 });
  });

  it('addUpTo and adjustWithin keep quota plus used quota within the bound and the balance at or above zero', async () => {
    const user = await t.createUser(100);
    const run = <T>(work: (manager: EntityManager) => Promise<T>) => t.transactions.run(work);
    expect(await run((manager) => users.addUpTo(manager, user.id, 50, 1_000, 9))).toBe(true);
    expect(await run((manager) => users.addUpTo(manager, user.id, 851, 1_000, 9))).toBe(false);
    expect(await run((manager) => users.addUpTo(manager, user.id, 850, 1_000, 9))).toBe(true);
    expect((await t.balance(user.id)).quota).toBe(1_000);
    expect(await run((manager) => users.adjustWithin(manager, user.id, 1, 1_000, 9))).toBe(false);
    expect(await run((manager) => users.adjustWithin(manager, user.id, -1_001, 1_000, 9))).toBe(false);
    expect(await run((manager) => users.adjustWithin(manager, user.id, -1_000, 1_000, 9))).toBe(true);
    expect((await t.balance(user.id)).quota).toBe(0);
    expect(await run((manager) => users.addUpTo(manager, user.id, MAX, MAX, 9))).toBe(true);
    expect(await run((manager) => users.adjustWithin(manager, user.id, 1, MAX, 9))).toBe(false);
    expect(await run((manager) => users.addUpTo(manager, 999_999, 1, MAX, 9))).toBe(false);
    expect(await run((manager) => users.exists(manager, 999_999))).toBe(false);
    expect(await run((manager) => users.exists(manager, user.id))).toBe(true);
  });

  it('lock holds the account row until the transaction ends: locked check-then-write steps run one at a time', async () => {
    const user = await t.createUser(0);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = t.transactions.run(async (manager) => {
      await users.lock(manager, user.id);
      order.push('first locked');
      await held;
      order.push('first done');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = t.transactions.run(async (manager) => {
      await users.lock(manager, user.id);
      order.push('second locked');
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second locked']);
  });

  it('API keys: insert, find by id and by hash, list, update, revoke, last use', async () => {
    const user = await t.createUser(0);
    const key = await newKey(user.id, 'a'.repeat(64));
    const other = await newKey(user.id, 'b'.repeat(64), { models: ['fake-1'] });
    expect(await keys.findByHash('a'.repeat(64))).toMatchObject({ id: key.id, userId: user.id, models: null, usedQuota: 0 });
    expect(await keys.findByHash('c'.repeat(64))).toBeNull();
    expect((await keys.listForUser(user.id)).map((row) => row.id)).toEqual([key.id, other.id]);
    await keys.update(other.id, { name: 'renamed', quotaLimit: 10 });
    expect(await keys.findById(other.id)).toMatchObject({ name: 'renamed', quotaLimit: 10, models: ['fake-1'] });
    await keys.revoke(key.id, 42);
    await keys.touchLastUsed(other.id, 43);
    expect(await keys.findById(key.id)).toMatchObject({ status: 'revoked', revokedAt: 42 });
    expect(await keys.findById(other.id)).toMatchObject({ lastUsedAt: 43 });
    expect(isUniqueViolation(await newKey(user.id, 'a'.repeat(64)).catch((error: unknown) => error))).toBe(true);
  });

  it('spendWithinLimits never passes the quota limit nor the budget, rolls a stale period; giveBack returns spending', async () => {
    const user = await t.createUser(0);
    const limited = await newKey(user.id, 'd'.repeat(64), { quotaLimit: 1_000 });
    const spend = (id: number, quota: number, periodStart: number) =>
      t.transactions.run((manager) => keys.spendWithinLimits(manager, id, quota, periodStart));
    const raced = await Promise.all(Array.from({ length: 6 }, () => spend(limited.id, 300, 0)));
    expect(raced.filter(Boolean)).toHaveLength(3);
    expect(await keys.findById(limited.id)).toMatchObject({ usedQuota: 900 });

    const budgeted = await newKey(user.id, 'e'.repeat(64), { budget: 500, budgetPeriod: '1d', budgetPeriodStart: 1_000, budgetUsed: 400 });
    expect(await spend(budgeted.id, 200, 1_000)).toBe(false);
    expect(await spend(budgeted.id, 100, 1_000)).toBe(true);
    // A new period: the budget starts again from this spend.
    expect(await spend(budgeted.id, 450, 2_000)).toBe(true);
    expect(await keys.findById(budgeted.id)).toMatchObject({ budgetUsed: 450, budgetPeriodStart: 2_000, usedQuota: 550 });
    expect(await t.transactions.run((manager) => keys.findIn(manager, budgeted.id))).toMatchObject({ budgetUsed: 450 });

    // Spent in this period: back to both; spent before it: to used_quota only; never below zero.
    await t.transactions.run((manager) => keys.giveBack(manager, budgeted.id, 50, 2_500));
    expect(await keys.findById(budgeted.id)).toMatchObject({ budgetUsed: 400, usedQuota: 500 });
    await t.transactions.run((manager) => keys.giveBack(manager, budgeted.id, 100, 1_500));
    expect(await keys.findById(budgeted.id)).toMatchObject({ budgetUsed: 400, usedQuota: 400 });
    await t.transactions.run((manager) => keys.giveBack(manager, budgeted.id, 5_000, 2_500));
    expect(await keys.findById(budgeted.id)).toMatchObject({ budgetUsed: 0, usedQuota: 0 });
  });
});
