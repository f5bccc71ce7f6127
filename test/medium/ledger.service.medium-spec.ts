import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';
import { LogEntity } from '../../src/billing/log.entity';

const movement = (userId: number, taskId: string, quota: number) => ({ userId, taskId, model: 'fake-1', quota, detail: `task ${taskId}` });

describe('LedgerService (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  beforeAll(async () => (t = await createServiceTestModule()));
  afterAll(() => t.close());

  it('charges within the balance; refuses a charge past it with a 402 and writes no row', async () => {
    const user = await t.createUser(1_000);
    await t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'l_a', 600)));
    expect(await t.balance(user.id)).toEqual({ quota: 400, usedQuota: 600 });

    await expect(t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'l_b', 401)))).rejects.toMatchObject({
      message: 'insufficient user quota',
    });
    expect(await t.balance(user.id)).toEqual({ quota: 400, usedQuota: 600 });
    const rows = await t.ledgerRows(user.id);
    expect(rows.map((row) => [row.type, row.taskId, row.quota, row.balanceAfter])).toEqual([['consume', 'l_a', -600, 400]]);

    // exactly the balance is still payable
    await t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'l_c', 400)));
    expect(await t.balance(user.id)).toEqual({ quota: 0, usedQuota: 1_000 });
  });

  it('concurrent charges cannot overdraw: of ten 300-unit charges on 1,000 units, three go through', async () => {
    const user = await t.createUser(1_000);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, `cc_${i}`, 300)))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await t.balance(user.id)).toEqual({ quota: 100, usedQuota: 900 });
    expect(await t.ledgerRows(user.id)).toHaveLength(3);
  });

  it('refunds a task exactly once, even when eight refunds race', async () => {
    const user = await t.createUser(1_000);
    await t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'r_a', 250)));
    const results = await Promise.all(Array.from({ length: 8 }, () => t.ledger.refundOnce(movement(user.id, 'r_a', 250))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    const refunds = await t.dataSource.manager.find(LogEntity, { where: { taskId: 'r_a', type: 'refund' } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ quota: 250, balanceAfter: 1_000 });
    // and later, sequentially, still no
    expect(await t.ledger.refundOnce(movement(user.id, 'r_a', 250))).toBe(false);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
  });

  it('a second charge of one task is refused by the (task, type) key and rolls its balance change back', async () => {
    const user = await t.createUser(1_000);
    await t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'd_a', 100)));
    await expect(t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'd_a', 100)))).rejects.toThrow();
    expect(await t.balance(user.id)).toEqual({ quota: 900, usedQuota: 100 });
    expect(await t.ledgerRows(user.id)).toHaveLength(1);
  });

  it('every movement is one row whose balance_after is the balance it left, summing to the balance', async () => {
    const user = await t.createUser(0);
    await t.ledger.topUp(user.id, 5_000);
    await t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'm_a', 1_200)));
    await t.transactions.run((m) => t.ledger.chargeIfEnough(m, movement(user.id, 'm_b', 800)));
    await t.ledger.refundOnce(movement(user.id, 'm_a', 1_200));
    await t.ledger.adjust(user.id, -500, 'correction');
    await expect(t.ledger.adjust(user.id, -10_000, 'too much')).rejects.toMatchObject({
      message: 'adjustment would make the balance negative',
    });
    await t.ledger.topUp(user.id, 1);

    const rows = await t.ledgerRows(user.id);
    expect(rows.map((row) => [row.type, row.quota, row.balanceAfter])).toEqual([
      ['topup', 5_000, 5_000],
      ['consume', -1_200, 3_800],
      ['consume', -800, 3_000],
      ['refund', 1_200, 4_200],
      ['adjust', -500, 3_700],
      ['topup', 1, 3_701],
    ]);
    const balance = await t.balance(user.id);
    expect(balance).toEqual({ quota: 3_701, usedQuota: 800 });
    expect(rows.reduce((sum, row) => sum + row.quota, 0)).toBe(balance.quota);
    expect(rows.at(-1)!.balanceAfter).toBe(balance.quota);
  });

  it('refuses a top-up past MAX_BALANCE without a row', async () => {
    const user = await t.createUser(Number.MAX_SAFE_INTEGER - 10);
    await expect(t.ledger.topUp(user.id, 11)).rejects.toMatchObject({ options: { param: 'quota' } });
    expect(await t.ledgerRows(user.id)).toHaveLength(0);
    expect((await t.balance(user.id)).quota).toBe(Number.MAX_SAFE_INTEGER - 10);
  });
});
