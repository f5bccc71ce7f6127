import type { UserEntity } from '../../src/auth/user.entity';
import { createWithFakeChannel, type ServiceTestContext } from './support/service-test-module';
import { TaskEntity } from '../../src/tasks/task.entity';

/** The task sync on SQLite with the fake family: tasks submitted through the pipeline, then followed. */
describe('TaskSyncService (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  let price: number;
  beforeAll(async () => ({ t, price } = await createWithFakeChannel()));
  afterAll(() => t.close());
  beforeEach(() => {
    t.adapter.pollOf.clear();
    t.adapter.nextPoll = { state: 'running', raw: {} };
  });

  async function submitted(): Promise<{ user: UserEntity; task: TaskEntity }> {
    const user = await t.createUser(10 * price);
    return { user, task: await t.submitFake(user) };
  }
  const stored = (id: number) => t.dataSource.manager.findOneByOrFail(TaskEntity, { id });
  const types = async (userId: number) => (await t.ledgerRows(userId)).map((row) => `${row.type} ${row.quota}`);
  /** Moves the clock past every poll interval and runs one round. */
  async function round(ms = 2_000): Promise<void> {
    t.clock.advance(ms);
    await t.sync.syncDueTasks();
  }

  it('a task the provider finishes succeeds with its link, keeps its charge and frees its lease', async () => {
    const { user, task } = await submitted();
    t.adapter.pollOf.set(task.taskId, { state: 'succeeded', videoUrl: 'https://cdn.example.com/v.mp4', outputSize: '1280x720', raw: {} });
    await round();
    expect(await stored(task.id)).toMatchObject({
      status: 'SUCCESS',
      progress: 100,
      resultUrl: 'https://cdn.example.com/v.mp4',
      nextPollAt: null,
      leaseOwner: null,
    });
    expect(await t.balance(user.id)).toEqual({ quota: 9 * price, usedQuota: price });
    expect(await types(user.id)).toEqual([`consume ${-price}`]);
  });

  it('a task the provider fails is refunded exactly once, however often it is reported', async () => {
    const { user, task } = await submitted();
    t.adapter.pollOf.set(task.taskId, { state: 'failed', failReason: 'generation failed', raw: {} });
    await round();
    await round();
    expect(await stored(task.id)).toMatchObject({ status: 'FAILURE', failReason: 'generation failed' });
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    expect(await types(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);
    expect(t.adapter.polled.filter((id) => id === task.taskId)).toHaveLength(1);
  });

  it('a task still running past TASK_TIMEOUT_MS fails as an upstream timeout and is refunded', async () => {
    const { user, task } = await submitted();
    await round();
    expect((await stored(task.id)).status).toBe('IN_PROGRESS');
    await round(t.config.taskTimeoutMs + 1);
    expect(await stored(task.id)).toMatchObject({ status: 'FAILURE', failReason: 'upstream timeout' });
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    expect(await types(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);
  });
});
