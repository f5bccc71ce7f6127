import { TaskEntity } from '../../src/tasks/task.entity';
import { TaskWakeRepository } from '../../src/tasks/repositories/task-wake.repository';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/**
 * A provider's callback makes its task due (TaskWakeRepository.wake), on each database: never
 * sooner than a second after the task's last read, never later than it was due, and only a task
 * in flight that no submit or poll holds (those are 'busy': woken once they let go).
 */
describeEachDatabase('waking a task for a callback (service tier)', (kind) => {
  let t: ServiceTestContext;
  let wake: TaskWakeRepository;
  let userId: number;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind });
    wake = new TaskWakeRepository(t.transactions);
    userId = (await t.createUser(0)).id;
  });
  afterAll(() => t.close());

  const nextPollOf = async (id: number) => (await t.dataSource.manager.findOneByOrFail(TaskEntity, { id })).nextPollAt;
  const inFlight = (now: number, extra: Partial<TaskEntity> = {}) =>
    t.createTask(userId, { status: 'IN_PROGRESS', upstreamTaskId: 'u1', nextPollAt: now + 60_000, ...extra });

  it('makes a task in flight due now, or a second after its last read when that was less than a second ago', async () => {
    const now = t.clock.now();
    const idle = await inFlight(now, { lastPollAt: now - 5_000 });
    expect(await wake.wake(idle.id, now)).toBe('woken');
    expect(await nextPollOf(idle.id)).toBe(now);
    const justRead = await inFlight(now, { lastPollAt: now - 200 });
    expect(await wake.wake(justRead.id, now)).toBe('woken');
    expect(await nextPollOf(justRead.id)).toBe(now - 200 + 1_000);
    // Woken again within the second: nothing moves, it is due already.
    expect(await wake.wake(justRead.id, now)).toBe('nothing');
    expect(await nextPollOf(justRead.id)).toBe(now + 800);
  });

  it('leaves a task a submit or a poll holds for later (busy), and an ended one alone', async () => {
    const now = t.clock.now();
    const submitting = await t.createTask(userId, {
      status: 'SUBMITTING',
      leaseOwner: 'submit#1',
      leaseUntil: now + 30_000,
      nextPollAt: now + 30_000,
    });
    expect(await wake.wake(submitting.id, now)).toBe('busy');
    expect(await nextPollOf(submitting.id)).toBe(now + 30_000);
    const polled = await inFlight(now, { leaseOwner: 'sync#1', leaseUntil: now + 30_000, nextPollAt: now + 30_000 });
    expect(await wake.wake(polled.id, now)).toBe('busy');
    expect(await nextPollOf(polled.id)).toBe(now + 30_000);
    const ended = await t.createTask(userId, { status: 'SUCCESS', upstreamTaskId: 'u1', nextPollAt: null });
    expect(await wake.wake(ended.id, now)).toBe('nothing');
    expect(await nextPollOf(ended.id)).toBeNull();
  });
});
