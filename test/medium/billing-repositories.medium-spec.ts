import { LogEntity, type LogType } from '../../src/billing/log.entity';
import { LogRepository } from '../../src/billing/log.repository';
import { PriceRepository } from '../../src/billing/price.repository';
import { isUniqueViolation } from '../../src/database/transaction-runner';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

const DAY = 86_400_000;

/** BillingModule's repositories (the ledger's rows, the price table), and the ledger's one transaction, on each database. */
describeEachDatabase('billing repositories (service tier)', (kind) => {
  let t: ServiceTestContext;
  let logs: LogRepository;
  let prices: PriceRepository;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind });
    logs = t.module.get(LogRepository);
    prices = t.module.get(PriceRepository);
  });
  afterAll(() => t.close());

  const row = (userId: number, type: LogType, quota: number, createdAt: number, extra: Partial<LogEntity> = {}) =>
    Object.assign(new LogEntity(), {
      type,
      userId,
      taskId: null,
      model: null,
      quota,
      balanceAfter: 0,
      channelId: null,
      detail: type,
      createdAt,
      ...extra,
    });
  const write = (log: LogEntity) => t.transactions.run((manager) => logs.insert(manager, log));

  it('inserts rows with their id; one row per task and type; a hold is confirmed once', async () => {
    const user = await t.createUser(0);
    const hold = await write(row(user.id, 'hold', -100, 1_000, { taskId: 'h_1', model: 'fake-1' }));
    expect(hold.id).toBeGreaterThan(0);
    expect(await t.ledgerRows(user.id)).toMatchObject([{ id: hold.id, type: 'hold', quota: -100, taskId: 'h_1', model: 'fake-1' }]);
    const again = await write(row(user.id, 'hold', -100, 1_001, { taskId: 'h_1' })).catch((error: unknown) => error);
    expect(isUniqueViolation(again)).toBe(true);
    expect(await t.transactions.run((manager) => logs.hasHold(manager, 'h_1'))).toBe(true);
    expect(await t.transactions.run((manager) => logs.confirmHold(manager, 'h_1', 1))).toBe(true);
    expect(await t.transactions.run((manager) => logs.confirmHold(manager, 'h_1', 1))).toBe(false);
    expect(await t.transactions.run((manager) => logs.hasHold(manager, 'h_1'))).toBe(false);
    expect((await logs.forTask('h_1')).map((log) => log.type)).toEqual(['consume']);
  });

  it('the ledger writes the balance change and its row in one transaction: both or neither', async () => {
    const user = await t.createUser(1_000);
    const movement = { userId: user.id, taskId: 'tx_1', model: 'fake-1', quota: 300, detail: 'task tx_1' };
    await expect(
      t.transactions.run(async (manager) => {
        await t.ledger.chargeIfEnough(manager, movement);
        throw new Error('the task insert failed');
      }),
    ).rejects.toThrow('the task insert failed');
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    expect(await t.ledgerRows(user.id)).toEqual([]);
    await t.transactions.run((manager) => t.ledger.chargeIfEnough(manager, movement));
    // A second charge of the task fails on its ledger row and takes its balance change back with it.
    await expect(t.transactions.run((manager) => t.ledger.chargeIfEnough(manager, movement))).rejects.toThrow();
    expect([await t.ledger.refundOnce(movement), await t.ledger.refundOnce(movement)]).toEqual([true, false]);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    expect((await t.ledgerRows(user.id)).map((log) => [log.type, log.quota, log.balanceAfter])).toEqual([
      ['consume', -300, 700],
      ['refund', 300, 1_000],
    ]);
  });

  it('pages and sums by filter, per day, per model and per time bucket', async () => {
    const user = await t.createUser(0);
    const day0 = 1_000 * DAY;
    await write(row(user.id, 'topup', 1_000, day0 + 1, { balanceAfter: 1_000 }));
    await write(row(user.id, 'consume', -300, day0 + 2, { taskId: 's_1', model: 'm1', balanceAfter: 700 }));
    await write(row(user.id, 'consume', -200, day0 + DAY + 1, { taskId: 's_2', model: 'm2', balanceAfter: 500 }));
    await write(row(user.id, 'refund', 200, day0 + DAY + 2, { taskId: 's_2', model: 'm2', balanceAfter: 700 }));
    await write(row(user.id, 'hold', -50, day0 + DAY + 3, { taskId: 's_3', model: 'm1', balanceAfter: 650 }));

    const page = await logs.page({ userId: user.id, types: ['consume', 'refund'] }, { page: 1, pageSize: 2 });
    expect(page.total).toBe(3);
    expect(page.data.map((log) => log.type)).toEqual(['refund', 'consume']);
    expect((await logs.page({ userId: user.id, type: 'hold', types: ['consume'] }, { page: 1, pageSize: 10 })).total).toBe(0);
    expect((await logs.page({ userId: user.id, from: day0 + DAY, to: day0 + DAY + 2 }, { page: 1, pageSize: 10 })).total).toBe(2);

    const sums = await logs.sumsByDay(user.id, day0, 0, DAY, ['consume', 'refund']);
    expect(sums.map((s) => [Number(s.day), s.type, Number(s.sum), Number(s.count)]).sort()).toEqual(
      [
        [day0, 'consume', -300, 1],
        [day0 + DAY, 'consume', -200, 1],
        [day0 + DAY, 'refund', 200, 1],
      ].sort(),
    );
    const lastIds = await logs.lastIdsByDay(user.id, day0 + 2, DAY);
    expect(lastIds.map((day) => day.day).sort()).toEqual([day0, day0 + DAY]);
    expect([...(await logs.balancesAfter(lastIds.map((day) => day.last))).values()].sort()).toEqual([650, 700]);
    expect(await logs.balanceBefore(user.id, day0 + 2)).toBe(1_000);
    expect(await logs.balanceBefore(user.id, day0)).toBeNull();
    const byModel = await logs.netChargesByModel(user.id, day0);
    // `+ 0`: a net of nothing comes back as -0.
    expect(byModel.map((m) => ({ ...m, quota: m.quota + 0 })).sort((a, b) => a.model.localeCompare(b.model))).toEqual([
      { model: 'm1', quota: 300, tasks: 1 },
      { model: 'm2', quota: 0, tasks: 1 },
    ]);
    expect(await logs.sumsByType(user.id)).toEqual({ topup: 1_000, consume: -500, refund: 200, hold: -50 });
    expect((await logs.totalsByType({ userId: user.id, from: day0 + 2 })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: 'consume', sum: -500, count: 2 },
      { type: 'hold', sum: -50, count: 1 },
      { type: 'refund', sum: 200, count: 1 },
    ]);
    // Every account's: the other tests' rows are of today (the clock's), far later.
    const buckets = (await logs.chargesAndRefundsByBucket(day0, DAY)).filter((bucket) => bucket.bucket < day0 + 2 * DAY);
    expect(buckets.sort((a, b) => a.bucket - b.bucket || a.type.localeCompare(b.type))).toEqual([
      { bucket: day0, type: 'consume', quota: -300, count: 1 },
      { bucket: day0 + DAY, type: 'consume', quota: -200, count: 1 },
      { bucket: day0 + DAY, type: 'refund', quota: 200, count: 1 },
    ]);
    expect([...(await logs.netChargedByModel(day0))].map(([model, quota]) => [model, quota + 0])).toEqual(
      expect.arrayContaining([
        ['m1', 300],
        ['m2', 0],
      ]),
    );
  });

  it("prices: a model's rules replaced and deleted as one (the catalog's entry writes), upserts by (model, resolution, duration), deletes; group ratios", async () => {
    const rule = { model: 'p-1', resolution: '720p', unit: 'second' as const, duration: 0, price: 10, audioPrice: null };
    const { model: _model, ...ofModel } = rule;
    await t.transactions.run((manager) => prices.replaceRulesOf(manager, 'p-1', [{ ...ofModel, resolution: '480p' }, { ...ofModel }]));
    await t.transactions.run((manager) => prices.replaceRulesOf(manager, 'p-2', [{ ...ofModel }]));
    expect((await prices.rulesOf('p-1')).map((r) => r.resolution).sort()).toEqual(['480p', '720p']);
    await t.transactions.run((manager) => prices.replaceRulesOf(manager, 'p-1', [{ ...ofModel }]));
    expect((await prices.rulesOf('p-1')).map((r) => r.resolution)).toEqual(['720p']);
    await t.transactions.run((manager) => prices.deleteRulesOf(manager, ['p-2']));
    expect(await prices.rulesOf('p-2')).toEqual([]);
    const updated = await prices.upsertRule({ ...rule, price: 20 });
    const added = await prices.upsertRule({ ...rule, resolution: '1080p', price: 30 });
    expect((await prices.rulesOf('p-1')).map((r) => [r.id, r.resolution, r.price]).sort()).toEqual(
      [
        [updated.id, '720p', 20],
        [added.id, '1080p', 30],
      ].sort(),
    );
    // Ordered by model, resolution, duration: fake-1 (the fake family's builtin entry, merged in at start), then p-1.
    expect((await prices.listRules()).map((r) => `${r.model} ${r.resolution}`)).toEqual(['fake-1 720p', 'p-1 1080p', 'p-1 720p']);
    expect(await prices.deleteRule(added.id)).toBe(true);
    expect(await prices.deleteRule(added.id)).toBe(false);
    expect(await prices.ratioOf('vip')).toBeNull();
    await prices.setRatio('vip', 0.5);
    await prices.setRatio('vip', 0.8);
    await prices.setRatio('b2b', 2);
    expect(await prices.ratioOf('vip')).toBe(0.8);
    expect((await prices.listRatios()).map((ratio) => [ratio.group, ratio.ratio])).toEqual([
      ['b2b', 2],
      ['vip', 0.8],
    ]);
  });
});
