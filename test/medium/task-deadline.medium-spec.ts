import type { UserEntity } from '../../src/auth/user.entity';
import { LateCompletionWatch } from '../../src/tasks/deadline/late-completion-watch';
import { TaskLateWatchRepository } from '../../src/tasks/repositories/task-late-watch.repository';
import { TaskMetrics } from '../../src/tasks/task-metrics.service';
import { TaskEntity } from '../../src/tasks/task.entity';
import { UpstreamError } from '../../src/upstream/upstream-adapter';
import { createWithFakeChannel, type ServiceTestContext } from './support/service-test-module';

const MINUTE = 60_000;

/**
 * TASK_TIMEOUT_MS reads the provider once more (contract, "The deadline reads the provider"), on
 * SQLite with the fake family: what the deadline decides, what the customer is charged, what the
 * provider is sent, and the late watch of a task the provider was not made to stop.
 */
describe('task deadline (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  let price: number;
  let cancels: string[];
  beforeAll(async () => ({ t, price } = await createWithFakeChannel()));
  afterAll(() => t.close());
  beforeEach(() => {
    t.adapter.pollOf.clear();
    t.adapter.nextPoll = { state: 'running', raw: {} };
    delete t.adapter.cancel;
    cancels = [];
  });

  const stored = (id: number) => t.dataSource.manager.findOneByOrFail(TaskEntity, { id });
  const ledger = async (userId: number) => (await t.ledgerRows(userId)).map((row) => `${row.type} ${row.quota}`);
  const pollsOf = (task: TaskEntity) => t.adapter.polled.filter((id) => id === task.taskId).length;
  const watch = () => t.module.get(LateCompletionWatch).watchNow();
  const lateCompletions = async () => (await t.module.get(TaskMetrics).lateCompletions.get()).values.reduce((sum, v) => sum + v.value, 0);
  /** The fake family has a cancel, which the provider accepts (or answers with `refusal`). */
  function withCancel(refusal?: Error): void {
    t.adapter.cancel = async (task) => {
      cancels.push(task.taskId);
      if (refusal) throw refusal;
    };
  }

  /** A charged task its provider runs, polled once: IN_PROGRESS. */
  async function running(): Promise<{ user: UserEntity; task: TaskEntity }> {
    const user = await t.createUser(10 * price);
    const task = await t.submitFake(user);
    t.clock.advance(2_000);
    await t.sync.syncDueTasks();
    expect((await stored(task.id)).status).toBe('IN_PROGRESS');
    return { user, task };
  }
  async function pastDeadline(): Promise<void> {
    t.clock.advance(t.config.taskTimeoutMs + 1);
    await t.sync.syncDueTasks();
  }

  it('finished at the provider when the deadline passes: it completes, keeps its one charge, and no cancel is sent', async () => {
    withCancel();
    const { user, task } = await running();
    t.adapter.pollOf.set(task.taskId, { state: 'succeeded', videoUrl: 'https://cdn.example.com/late.mp4', raw: {} });
    await pastDeadline();
    expect(await stored(task.id)).toMatchObject({ status: 'SUCCESS', resultUrl: 'https://cdn.example.com/late.mp4', failReason: null });
    expect(await t.balance(user.id)).toEqual({ quota: 9 * price, usedQuota: price });
    expect(await ledger(user.id)).toEqual([`consume ${-price}`]);
    expect(cancels).toEqual([]);
  });

  it('failed at the provider: it fails with the provider’s reason, refunded once, and is read no more', async () => {
    withCancel();
    const { user, task } = await running();
    t.adapter.pollOf.set(task.taskId, { state: 'failed', failReason: 'generation failed: E42: provider internal error', raw: {} });
    await pastDeadline();
    expect(await stored(task.id)).toMatchObject({
      status: 'FAILURE',
      failReason: 'generation failed: E42: provider internal error',
      nextPollAt: null,
    });
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    expect(await ledger(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);
    expect(cancels).toEqual([]);
  });

  it('still running where the family can cancel: the cancel is sent, the task fails `upstream timeout`, refunded once, not watched', async () => {
    withCancel();
    const { user, task } = await running();
    await pastDeadline();
    expect(cancels).toEqual([task.taskId]);
    expect(await stored(task.id)).toMatchObject({
      status: 'FAILURE',
      failReason: 'upstream timeout',
      nextPollAt: null,
      lateCompletion: null,
    });
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    expect(await ledger(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);

    const polls = pollsOf(task);
    t.clock.advance(11 * MINUTE);
    await t.sync.syncDueTasks();
    await watch();
    expect(pollsOf(task)).toBe(polls);
  });

  it('still running where the family has no cancel: `upstream timeout`, refunded; read every 10 minutes until its end is kept for the operator', async () => {
    const { user, task } = await running();
    await pastDeadline();
    const givenUp = await stored(task.id);
    expect(givenUp).toMatchObject({ status: 'FAILURE', failReason: 'upstream timeout', lateCompletion: null });
    expect(givenUp.nextPollAt).toBe(givenUp.finishTime! + 10 * MINUTE);
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    const counted = await lateCompletions();
    const polls = pollsOf(task);

    // Not sooner than 10 minutes after the deadline; then once, and again 10 minutes after that read.
    t.clock.advance(5 * MINUTE);
    await watch();
    expect(pollsOf(task)).toBe(polls);
    t.clock.advance(6 * MINUTE);
    await watch();
    await watch();
    expect(pollsOf(task)).toBe(polls + 1);
    expect((await stored(task.id)).nextPollAt).toBe(t.clock.now() + 10 * MINUTE);

    t.adapter.pollOf.set(task.taskId, {
      state: 'succeeded',
      videoUrl: 'https://cdn.example.com/late.mp4',
      raw: {},
      providerUsage: { unit: 'credits', amount: 40 },
    });
    t.clock.advance(9 * MINUTE);
    await watch();
    expect(pollsOf(task)).toBe(polls + 1);
    t.clock.advance(MINUTE);
    await watch();
    expect(pollsOf(task)).toBe(polls + 2);
    expect(await stored(task.id)).toMatchObject({
      status: 'FAILURE',
      failReason: 'upstream timeout',
      resultUrl: null,
      nextPollAt: null,
      lateCompletion: { at: t.clock.now(), state: 'succeeded', providerUsage: { unit: 'credits', amount: 40 } },
    });
    expect(await lateCompletions()).toBe(counted + 1);
    // The customer stays refunded: no quota moved, and the task is read no more.
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    expect(await ledger(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);
    t.clock.advance(30 * MINUTE);
    await t.sync.syncDueTasks();
    await watch();
    expect(pollsOf(task)).toBe(polls + 2);
    expect(await lateCompletions()).toBe(counted + 1);
  });

  it('a provider that fails its end later is kept as a late failure', async () => {
    const { task } = await running();
    await pastDeadline();
    t.adapter.pollOf.set(task.taskId, { state: 'failed', failReason: 'generation failed', raw: {} });
    t.clock.advance(10 * MINUTE);
    await watch();
    expect((await stored(task.id)).lateCompletion).toMatchObject({ state: 'failed', providerUsage: null });
  });

  it('a cancel the provider refuses leaves the task failed and refunded, and watched', async () => {
    withCancel(new UpstreamError('invalid_input', 'too late to cancel', { httpStatus: 400 }));
    const { user, task } = await running();
    await pastDeadline();
    expect(cancels).toEqual([task.taskId]);
    const failed = await stored(task.id);
    expect(failed).toMatchObject({ status: 'FAILURE', failReason: 'upstream timeout' });
    expect(failed.nextPollAt).toBe(failed.finishTime! + 10 * MINUTE);
    expect(await ledger(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);
  });

  it('a provider that cannot be read at the deadline: `upstream timeout` at once, refunded once, watched', async () => {
    withCancel();
    const { user, task } = await running();
    t.adapter.pollOf.set(task.taskId, new UpstreamError('transient', 'HTTP 503', { httpStatus: 503 }));
    await pastDeadline();
    const failed = await stored(task.id);
    expect(failed).toMatchObject({ status: 'FAILURE', failReason: 'upstream timeout' });
    expect(failed.nextPollAt).toBe(failed.finishTime! + 10 * MINUTE);
    expect(cancels).toEqual([]);
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    expect(await ledger(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);

    // Still down 10 minutes later: read again 10 minutes on, nothing recorded.
    t.clock.advance(10 * MINUTE);
    await watch();
    expect(await stored(task.id)).toMatchObject({ nextPollAt: t.clock.now() + 10 * MINUTE, lateCompletion: null });
  });

  it('the watch ends 24 hours after the deadline: the last read is the one whose next would fall past it', async () => {
    const { task } = await running();
    await pastDeadline();
    const givenUpAt = (await stored(task.id)).finishTime!;
    const polls = pollsOf(task);
    t.clock.advance(23 * 60 * MINUTE + 55 * MINUTE);
    await watch();
    expect(pollsOf(task)).toBe(polls + 1);
    expect(await stored(task.id)).toMatchObject({ nextPollAt: null, lateCompletion: null });
    expect(t.clock.now() - givenUpAt).toBeLessThan(24 * 60 * MINUTE);

    t.adapter.pollOf.set(task.taskId, { state: 'succeeded', raw: {} });
    t.clock.advance(20 * MINUTE);
    await watch();
    expect(pollsOf(task)).toBe(polls + 1);
    expect((await stored(task.id)).lateCompletion).toBeNull();
  });

  it('two instances claiming the same watched task at once: one of them gets it', async () => {
    const { task } = await running();
    await pastDeadline();
    t.clock.advance(10 * MINUTE);
    const rows = t.module.get(TaskLateWatchRepository);
    const now = t.clock.now();
    const claims = await Promise.all(['a#1', 'b#1'].map((owner) => rows.claimDue(owner, now, now + 10 * MINUTE, 10)));
    const ids = claims.map((claimed) => claimed.filter((row) => row.id === task.id).length);
    expect(ids.sort()).toEqual([0, 1]);
  });
});
