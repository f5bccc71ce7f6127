import { In } from 'typeorm';
import { claimLease, type LeaseClaim } from '../../src/jobs/lease-claim';
import { TaskEntity } from '../../src/tasks/task.entity';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/** The one lease claim (jobs/lease-claim.ts) and the task claims written with it, on each database. */
describeEachDatabase('lease claim (service tier)', (kind) => {
  let t: ServiceTestContext;
  let userId: number;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind });
    userId = (await t.createUser(0)).id;
  });
  afterAll(() => t.close());

  /** Due tasks of this test only (each test uses its own platform). */
  const dueClaim = (platform: string, owner: string, now: number, leaseUntil: number, limit: number): LeaseClaim => ({
    table: 'tasks',
    claimable: { sql: 'platform = ? AND next_poll_at <= ?', params: [platform, now] },
    order: 'next_poll_at',
    limit,
    lease: { sql: 'lease_owner = ?, lease_until = ?, next_poll_at = ?', params: [owner, leaseUntil, leaseUntil] },
  });

  const tasksOf = (platform: string) => t.dataSource.manager.find(TaskEntity, { where: { platform }, order: { id: 'ASC' } });

  it('takes the longest due rows first, up to the limit, and writes the lease; nothing not yet due', async () => {
    const now = t.clock.now();
    const late = await t.createTask(userId, { platform: 'p1', nextPollAt: now - 3_000 });
    const later = await t.createTask(userId, { platform: 'p1', nextPollAt: now - 5_000 });
    await t.createTask(userId, { platform: 'p1', nextPollAt: now - 1_000 });
    const future = await t.createTask(userId, { platform: 'p1', nextPollAt: now + 1_000 });

    const picked = await claimLease(t.transactions, dueClaim('p1', 'a#1', now, now + 60_000, 2));
    expect(picked).toEqual([later.id, late.id]);
    const rows = await tasksOf('p1');
    expect(rows.filter((row) => row.leaseOwner === 'a#1').map((row) => row.id)).toEqual([late.id, later.id]);
    expect(rows.find((row) => row.id === late.id)).toMatchObject({ leaseUntil: now + 60_000, nextPollAt: now + 60_000 });
    expect(rows.find((row) => row.id === future.id)).toMatchObject({ leaseOwner: null, nextPollAt: now + 1_000 });
  });

  it('a leased row is not taken again until its lease runs out; then another owner takes it', async () => {
    const now = t.clock.now();
    const task = await t.createTask(userId, { platform: 'p2', nextPollAt: now - 1 });
    expect(await claimLease(t.transactions, dueClaim('p2', 'a#1', now, now + 30_000, 10))).toEqual([task.id]);
    expect(await claimLease(t.transactions, dueClaim('p2', 'b#1', now + 29_999, now + 90_000, 10))).toEqual([]);
    expect(await claimLease(t.transactions, dueClaim('p2', 'b#1', now + 30_000, now + 90_000, 10))).toEqual([task.id]);
    expect((await tasksOf('p2'))[0]).toMatchObject({ leaseOwner: 'b#1', leaseUntil: now + 90_000 });
  });

  it('concurrent claimers never take the same row, and together take every due row', async () => {
    const now = t.clock.now();
    for (let i = 0; i < 24; i++) await t.createTask(userId, { platform: 'p3', nextPollAt: now - 1_000 + i });
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => claimLease(t.transactions, dueClaim('p3', `c#${i}`, now, now + 60_000, 5))),
    );
    const won = claims.flat();
    expect(new Set(won).size).toBe(won.length);
    // What a claim returns is what its owner holds.
    const rows = await tasksOf('p3');
    claims.forEach((ids, i) => {
      const held = rows.filter((row) => row.leaseOwner === `c#${i}`).map((row) => row.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(held);
    });
    // Claimers that found every row locked (MySQL, PostgreSQL) or taken leave the rest to a next claim.
    const rest = await claimLease(t.transactions, dueClaim('p3', 'last', now, now + 60_000, 24));
    expect(won.length + rest.length).toBe(24);
  });

  it('checks `claimable` again when taking: a chosen row that is not claimable stays; pickOnly and readBack', async () => {
    const now = t.clock.now();
    const due = await t.createTask(userId, { platform: 'p4', nextPollAt: now - 1 });
    const skipped = await t.createTask(userId, { platform: 'p4', nextPollAt: now - 2 });
    const notDue = await t.createTask(userId, { platform: 'p4', nextPollAt: now + 10_000 });
    const read = await claimLease(
      t.transactions,
      {
        ...dueClaim('p4', 'd#1', now, now + 60_000, 10),
        pickOnly: { sql: 'id <> ?', params: [skipped.id] },
        columns: ['next_poll_at'],
        choose: (candidates) => [...candidates.map((row) => Number(row.id)), notDue.id],
      },
      (manager, picked) => manager.find(TaskEntity, { where: { id: In(picked), leaseOwner: 'd#1' } }),
    );
    expect(read.map((task) => task.id)).toEqual([due.id]);
    const rows = await tasksOf('p4');
    expect(rows.map((row) => row.leaseOwner)).toEqual(['d#1', null, null]);
  });

  it('TaskLeaseRepository.claimDueTasks takes due tasks of the given statuses only', async () => {
    const now = t.clock.now() + 1_000_000;
    const queued = await t.createTask(userId, { status: 'QUEUED', nextPollAt: now - 1 });
    const running = await t.createTask(userId, { status: 'IN_PROGRESS', nextPollAt: now - 2 });
    const done = await t.createTask(userId, { status: 'SUCCESS', nextPollAt: now - 3, finishTime: now - 3 });
    const submitting = await t.createTask(userId, { status: 'SUBMITTING', nextPollAt: now - 4 });
    const claimed = await t.tasks.leases.claimDueTasks('sync#1', now, now + 60_000, 100);
    const ids = claimed.map((task) => task.id);
    expect(ids).toEqual(expect.arrayContaining([queued.id, running.id]));
    expect(ids).not.toContain(done.id);
    expect(ids).not.toContain(submitting.id);
    expect(claimed.every((task) => task.leaseOwner === 'sync#1' && task.nextPollAt === now + 60_000)).toBe(true);
    const takeovers = await t.tasks.leases.claimDueTasks('sync#2', now, now + 60_000, 100, ['SUBMITTING']);
    expect(takeovers.map((task) => task.id)).toEqual([submitting.id]);
  });

  it('TaskSweepRepository.claimEndedBefore takes ended tasks past the cut, hides them, and passes over held ones', async () => {
    const now = t.clock.now() + 2_000_000;
    const old = await t.createTask(userId, { platform: 'p6', status: 'FAILURE', finishTime: now - 10_000, nextPollAt: null });
    const held = await t.createTask(userId, { platform: 'p6', status: 'SUCCESS', finishTime: now - 20_000, nextPollAt: null });
    const recent = await t.createTask(userId, { platform: 'p6', status: 'SUCCESS', finishTime: now - 1_000, nextPollAt: null });
    const running = await t.createTask(userId, { platform: 'p6', status: 'IN_PROGRESS', nextPollAt: now });
    const onlyP6 = () => "tasks.platform <> 'p6'";
    const heldOne = (task: { id: string; taskId: string }) => `${task.id} = ${held.id}`;
    const claimed = await t.tasks.sweeps.claimEndedBefore('ret#1', now - 5_000, now, now + 60_000, 10, [onlyP6, heldOne]);
    expect(claimed.map((task) => task.id)).toEqual([old.id]);
    const rows = await tasksOf('p6');
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(old.id)).toMatchObject({ leaseOwner: 'ret#1', leaseUntil: now + 60_000, deletedAt: now });
    for (const id of [held.id, recent.id, running.id]) expect(byId.get(id)).toMatchObject({ leaseOwner: null, deletedAt: null });
    // Claimed while its lease holds: not again; after it, again, keeping the first hiding time.
    expect(await t.tasks.sweeps.claimEndedBefore('ret#2', now - 5_000, now + 1, now + 60_000, 10, [onlyP6, heldOne])).toEqual([]);
    const again = await t.tasks.sweeps.claimEndedBefore('ret#2', now - 5_000, now + 60_000, now + 120_000, 10, [onlyP6, heldOne]);
    expect(again.map((task) => [task.id, task.leaseOwner, task.deletedAt])).toEqual([[old.id, 'ret#2', now]]);
  });
});
