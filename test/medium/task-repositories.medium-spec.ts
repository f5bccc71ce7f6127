import { TaskEntity } from '../../src/tasks/task.entity';
import { TaskEventEntity } from '../../src/tasks/task-event.entity';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/**
 * The task repositories' writes of a task's timeline and of batched poll results, and the reads TaskQueries offers (lists, search,
 * stuck tasks, the dashboard's counts), on each database (their claims: lease-claim.medium-spec.ts).
 */
describeEachDatabase('task repositories (service tier)', (kind) => {
  let t: ServiceTestContext;
  let userId: number;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind });
    userId = (await t.createUser(0)).id;
  });
  afterAll(() => t.close());

  const eventsOf = (taskRowId: number) => t.dataSource.manager.find(TaskEventEntity, { where: { taskRowId }, order: { id: 'ASC' } });

  it('records a state change in the caller’s transaction, its detail cut to 255 characters, and rolls back with it', async () => {
    const task = await t.createTask(userId);
    await t.transactions.run((manager) =>
      t.tasks.states.recordEvent(manager, { taskRowId: task.id, kind: 'status', status: 'FAILURE', detail: 'x'.repeat(300), at: 5 }),
    );
    await expect(
      t.transactions.run(async (manager) => {
        await t.tasks.states.recordEvent(manager, { taskRowId: task.id, kind: 'archived', at: 6 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const events = await eventsOf(task.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'status', status: 'FAILURE', progress: null, at: 5 });
    expect(events[0].detail).toHaveLength(255);
  });

  it('releaseMany writes back quiet polls of the leases still held, with a progress event per quarter passed', async () => {
    const now = t.clock.now();
    const lease = { status: 'IN_PROGRESS' as const, leaseOwner: 'sync#1', leaseUntil: now + 60_000, nextPollAt: now + 60_000 };
    const [a, b, lost] = [await t.createTask(userId, lease), await t.createTask(userId, lease), await t.createTask(userId, lease)];
    await t.dataSource.manager.update(TaskEntity, { id: lost.id }, { leaseOwner: 'sync#2' });
    await t.tasks.leases.releaseMany(
      'sync#1',
      'IN_PROGRESS',
      [
        { id: a.id, progress: 30, nextPollAt: now + 1_000, upstreamResponse: { p: 30 }, passedStep: true },
        { id: b.id, progress: 10, nextPollAt: now + 2_000, upstreamResponse: null },
        { id: lost.id, progress: 60, nextPollAt: now + 3_000, upstreamResponse: null, passedStep: true },
      ],
      now,
    );
    const rows = await t.dataSource.manager.find(TaskEntity, {
      where: [{ id: a.id }, { id: b.id }, { id: lost.id }],
      order: { id: 'ASC' },
    });
    expect(rows[0]).toMatchObject({ progress: 30, nextPollAt: now + 1_000, upstreamResponse: { p: 30 }, leaseOwner: null, pollCount: 1 });
    expect(rows[1]).toMatchObject({ progress: 10, nextPollAt: now + 2_000, upstreamResponse: null, leaseOwner: null, pollCount: 1 });
    expect(rows[2]).toMatchObject({ progress: 0, leaseOwner: 'sync#2', pollCount: 0 });
    expect((await eventsOf(a.id)).map((event) => [event.kind, event.status, event.progress, event.at])).toEqual([
      ['progress', 'IN_PROGRESS', 30, now],
    ]);
    expect(await eventsOf(b.id)).toEqual([]);
    expect(await eventsOf(lost.id)).toEqual([]);
  });

  it('isDeletedLocked reads the committed row inside the transaction', async () => {
    const task = await t.createTask(userId);
    expect(await t.transactions.run((manager) => t.tasks.states.isDeletedLocked(manager, task.id))).toBe(false);
    await t.dataSource.manager.update(TaskEntity, { id: task.id }, { deletedAt: 1 });
    expect(await t.transactions.run((manager) => t.tasks.states.isDeletedLocked(manager, task.id))).toBe(true);
    expect(await t.transactions.run((manager) => t.tasks.states.isDeletedLocked(manager, 999_999))).toBe(true);
  });
  it('eventsOf lists a task’s events oldest first; findOwnedNotDeleted finds only the owner’s task it did not delete', async () => {
    const other = (await t.createUser(0)).id;
    const task = await t.createTask(userId);
    const deleted = await t.createTask(userId, { deletedAt: 7 });
    await t.transactions.run(async (manager) => {
      await t.tasks.states.recordEvent(manager, { taskRowId: task.id, kind: 'status', status: 'QUEUED', at: 1 });
      await t.tasks.states.recordEvent(manager, { taskRowId: task.id, kind: 'progress', progress: 30, at: 2 });
    });
    expect((await t.tasks.reads.eventsOf(task.id)).map((event) => [event.kind, event.at])).toEqual([
      ['status', 1],
      ['progress', 2],
    ]);
    expect(await t.tasks.reads.eventsOf(deleted.id)).toEqual([]);
    expect((await t.tasks.reads.findOwnedNotDeleted(userId, task.taskId))?.id).toBe(task.id);
    expect(await t.tasks.reads.findOwnedNotDeleted(other, task.taskId)).toBeNull();
    expect(await t.tasks.reads.findOwnedNotDeleted(userId, deleted.taskId)).toBeNull();
  });

  it('page filters, searches (LIKE wildcards taken literally), sorts with the id as tie-break, and counts', async () => {
    const owner = (await t.createUser(0)).id;
    const made = (taskId: string, overrides: Partial<TaskEntity>) => t.createTask(owner, { taskId, ...overrides });
    const fox = await made('tq_alpha_1', { prompt: 'A red FOX jumps', model: 'm-1', status: 'SUCCESS', quota: 5, createdAt: 10 });
    const sale = await made('tq_alpha_2', { prompt: '50%_off sale', model: 'm-2', status: 'FAILURE', quota: 3, createdAt: 20 });
    const apples = await made('tq_beta', { prompt: '500 apples', model: 'm-1', status: 'SUCCESS', quota: 3, createdAt: 20 });
    const gone = await made('tq_gone', { prompt: null, model: 'm-2', status: 'FAILURE', quota: 9, createdAt: 5, deletedAt: 30 });
    await t.createTask(userId, { taskId: 'tq_alpha_other', prompt: 'a fox' });
    const ids = async (query: Partial<Parameters<typeof t.tasks.reads.page>[0]>) => {
      const { data, total } = await t.tasks.reads.page({ userId: owner, page: 1, pageSize: 10, ...query });
      return { ids: data.map((task) => task.id), total };
    };

    expect(await ids({})).toEqual({ ids: [gone.id, apples.id, sale.id, fox.id], total: 4 });
    expect(await ids({ excludeDeleted: true })).toEqual({ ids: [apples.id, sale.id, fox.id], total: 3 });
    expect(await ids({ q: 'tq_alpha' })).toEqual({ ids: [sale.id, fox.id], total: 2 });
    expect(await ids({ q: 'tq_beta' })).toEqual({ ids: [apples.id], total: 1 });
    expect(await ids({ q: 'fox' })).toEqual({ ids: [fox.id], total: 1 });
    expect(await ids({ q: '50%' })).toEqual({ ids: [sale.id], total: 1 });
    expect(await ids({ q: '%_' })).toEqual({ ids: [sale.id], total: 1 });
    expect(await ids({ q: 'tq!alpha' })).toEqual({ ids: [], total: 0 });
    expect(await ids({ status: ['FAILURE'], model: 'm-2' })).toEqual({ ids: [gone.id, sale.id], total: 2 });
    expect(await ids({ sort: 'created_at' })).toEqual({ ids: [gone.id, fox.id, sale.id, apples.id], total: 4 });
    expect(await ids({ sort: 'cost' })).toEqual({ ids: [apples.id, sale.id, fox.id, gone.id], total: 4 });
    expect(await ids({ sort: '-cost' })).toEqual({ ids: [gone.id, fox.id, apples.id, sale.id], total: 4 });
    expect(await ids({ sort: 'model', status: ['SUCCESS'] })).toEqual({ ids: [apples.id, fox.id], total: 2 });
    expect(await ids({ sort: 'created_at', page: 2, pageSize: 3 })).toEqual({ ids: [apples.id], total: 4 });
    const everyone = await t.tasks.reads.page({ q: 'tq_alpha', page: 1, pageSize: 10 });
    expect(everyone.total).toBe(3);
  });

  it('findStuck and stuckSummary: pollable tasks due too long, SUBMITTING ones created too long ago', async () => {
    const owner = (await t.createUser(0)).id;
    const running = await t.createTask(owner, { status: 'IN_PROGRESS', nextPollAt: 1_000, createdAt: 900 });
    const queued = await t.createTask(owner, { status: 'QUEUED', nextPollAt: 2_000, createdAt: 800 });
    const submitting = await t.createTask(owner, { status: 'SUBMITTING', nextPollAt: 3_000, createdAt: 500 });
    await t.createTask(owner, { status: 'SUCCESS', nextPollAt: 100, createdAt: 100 });
    await t.createTask(owner, { status: 'IN_PROGRESS', nextPollAt: 5_000, createdAt: 100 });
    await t.createTask(owner, { status: 'SUBMITTING', nextPollAt: 100, createdAt: 5_000 });

    expect((await t.tasks.stats.findStuck(5_000, 10)).map((task) => task.id)).toEqual([running.id, queued.id, submitting.id]);
    expect((await t.tasks.stats.findStuck(5_000, 2)).map((task) => task.id)).toEqual([running.id, queued.id]);
    expect(await t.tasks.stats.stuckSummary(5_000)).toEqual({ count: 3, oldestCreatedAt: 500 });
    expect(await t.tasks.stats.stuckSummary(50)).toEqual({ count: 0, oldestCreatedAt: null });
  });

  it("countByBucketAndStatus and countByStatusPer count the tasks created since a time, a client's cancel apart as CANCELLED", async () => {
    const owner = (await t.createUser(0)).id;
    const from = 3_000_000_000_000;
    await t.createTask(owner, { createdAt: from - 1, status: 'SUCCESS' });
    await t.createTask(owner, { createdAt: from, status: 'SUCCESS', channelId: 7, model: 'm-a' });
    await t.createTask(owner, { createdAt: from + 999, status: 'SUCCESS', channelId: 7, model: 'm-b' });
    await t.createTask(owner, { createdAt: from + 1_500, status: 'FAILURE', channelId: null, model: 'm-a' });
    await t.createTask(owner, {
      createdAt: from + 1_600,
      status: 'FAILURE',
      channelId: 7,
      model: 'm-b',
      failReason: 'cancelled by the client',
    });
    const sorted = <T>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();

    expect(sorted(await t.tasks.stats.countByBucketAndStatus(from, 1_000))).toEqual(
      sorted([
        { bucket: from, status: 'SUCCESS', count: 2 },
        { bucket: from + 1_000, status: 'FAILURE', count: 1 },
        { bucket: from + 1_000, status: 'CANCELLED', count: 1 },
      ]),
    );
    const perChannel = await t.tasks.stats.countByStatusPer('channel_id', from);
    expect(sorted(perChannel.map((row) => ({ ...row, key: row.key === null ? null : Number(row.key) })))).toEqual(
      sorted([
        { key: 7, status: 'SUCCESS', count: 2 },
        { key: 7, status: 'CANCELLED', count: 1 },
        { key: null, status: 'FAILURE', count: 1 },
      ]),
    );
    expect(sorted(await t.tasks.stats.countByStatusPer('model', from))).toEqual(
      sorted([
        { key: 'm-a', status: 'SUCCESS', count: 1 },
        { key: 'm-b', status: 'SUCCESS', count: 1 },
        { key: 'm-a', status: 'FAILURE', count: 1 },
        { key: 'm-b', status: 'CANCELLED', count: 1 },
      ]),
    );
  });

  it('listVisiblePage pages an owner’s visible tasks by id both ways; modelsUsedBy and failReasonsOf read only the owner’s', async () => {
    const owner = (await t.createUser(0)).id;
    const other = (await t.createUser(0)).id;
    const done = await t.createTask(owner, { status: 'FAILURE', model: 'm-b', failReason: 'blocked' });
    await t.createTask(owner, { status: 'REJECTED', model: 'm-c' });
    await t.createTask(owner, { status: 'SUBMITTING', model: 'm-b' });
    await t.createTask(owner, { status: 'SUCCESS', deletedAt: 1, model: 'm-a' });
    const running = await t.createTask(owner, { status: 'IN_PROGRESS', model: 'm-b' });
    const theirs = await t.createTask(other, { status: 'FAILURE', failReason: 'theirs' });
    const page = async (options: { afterId?: number; limit: number; order: 'asc' | 'desc' }) =>
      (await t.tasks.reads.listVisiblePage(owner, options)).map((task) => task.id);

    expect(await page({ limit: 10, order: 'asc' })).toEqual([done.id, running.id]);
    expect(await page({ limit: 10, order: 'desc' })).toEqual([running.id, done.id]);
    expect(await page({ limit: 1, order: 'asc' })).toEqual([done.id]);
    expect(await page({ afterId: done.id, limit: 1, order: 'asc' })).toEqual([running.id]);
    expect(await page({ afterId: running.id, limit: 10, order: 'desc' })).toEqual([done.id]);
    expect(await t.tasks.reads.modelsUsedBy(owner)).toEqual(['m-a', 'm-b', 'm-c']);
    expect(await t.tasks.reads.failReasonsOf(owner, [done.taskId, running.taskId, theirs.taskId])).toEqual(
      new Map([
        [done.taskId, 'blocked'],
        [running.taskId, null],
      ]),
    );
    expect(await t.tasks.reads.failReasonsOf(owner, [])).toEqual(new Map());
  });
});
