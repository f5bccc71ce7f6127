import { TaskEntity } from '../../src/tasks/task.entity';
import { TaskEventEntity } from '../../src/tasks/task-event.entity';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/** TaskRepository's writes of a task's timeline and of batched poll results, on each database (its claims: lease-claim.medium-spec.ts). */
describeEachDatabase('TaskRepository (service tier)', (kind) => {
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
      t.tasks.recordEvent(manager, { taskRowId: task.id, kind: 'status', status: 'FAILURE', detail: 'x'.repeat(300), at: 5 }),
    );
    await expect(
      t.transactions.run(async (manager) => {
        await t.tasks.recordEvent(manager, { taskRowId: task.id, kind: 'archived', at: 6 });
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
    await t.tasks.releaseMany(
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
    expect(await t.transactions.run((manager) => t.tasks.isDeletedLocked(manager, task.id))).toBe(false);
    await t.dataSource.manager.update(TaskEntity, { id: task.id }, { deletedAt: 1 });
    expect(await t.transactions.run((manager) => t.tasks.isDeletedLocked(manager, task.id))).toBe(true);
    expect(await t.transactions.run((manager) => t.tasks.isDeletedLocked(manager, 999_999))).toBe(true);
  });
});
