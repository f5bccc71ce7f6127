import { LogEntity } from '../../src/billing/log.entity';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';
import type { PollOutcome } from '../../src/upstream/upstream-adapter';
import { TaskEntity } from '../../src/tasks/task.entity';
import type { TaskStatus } from '../../src/tasks/task-status';

describe('TaskTransitionsService (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  beforeAll(async () => (t = await createServiceTestModule()));
  afterAll(() => t.close());

  /** A user with 1,000 units and a task of `quota` charged through the ledger, in `status`. */
  async function chargedTask(status: TaskStatus, quota = 300, overrides: Partial<TaskEntity> = {}) {
    const user = await t.createUser(1_000);
    const task = await t.createTask(user.id, { status, quota, ...overrides });
    await t.transactions.run((m) =>
      t.ledger.chargeIfEnough(m, { userId: user.id, taskId: task.taskId, model: task.model, quota, detail: 'charge' }),
    );
    expect(await t.balance(user.id)).toEqual({ quota: 1_000 - quota, usedQuota: quota });
    return { user, task };
  }
  const refundRows = (taskId: string) => t.dataSource.manager.find(LogEntity, { where: { taskId, type: 'refund' } });
  const stored = (id: number) => t.dataSource.manager.findOneByOrFail(TaskEntity, { id });
  const failed: PollOutcome = { state: 'failed', failReason: 'content policy', raw: { status: 'failed' } };

  it('a task the sync finds failed is moved to FAILURE and refunded once; a stale second report changes nothing', async () => {
    const { user, task } = await chargedTask('IN_PROGRESS');
    const stale = { ...task };
    const plan = t.transitions.planPoll(task, failed, 50);
    expect(plan).toMatchObject({ status: 'FAILURE', failure: 'content policy' });
    expect(await t.transitions.applyPlan(task, plan)).toBe('FAILURE');

    expect(await stored(task.id)).toMatchObject({ status: 'FAILURE', failReason: 'content policy', progress: 100, nextPollAt: null });
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    expect(await refundRows(task.taskId)).toEqual([expect.objectContaining({ quota: 300, balanceAfter: 1_000 })]);

    // another instance polled the same task with the old status: it loses the compare-and-set
    expect(await t.transitions.applyPlan(stale, t.transitions.planPoll(stale, failed, 50))).toBeNull();
    expect(await t.transitions.fail(task, 'again')).toBe(false);
    expect(await refundRows(task.taskId)).toHaveLength(1);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
  });

  it('concurrent failures of one task (sync, timeout, admin) refund it exactly once', async () => {
    const { user, task } = await chargedTask('QUEUED');
    const results = await Promise.all(['a', 'b', 'upstream timeout', 'c', 'd'].map((reason) => t.transitions.fail({ ...task }, reason)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await refundRows(task.taskId)).toHaveLength(1);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
  });

  it('moves only forward: a late "queued" report keeps IN_PROGRESS, a finished task cannot fail or be refunded', async () => {
    const { user, task } = await chargedTask('IN_PROGRESS', 300, { progress: 40 });
    const backwards = t.transitions.planPoll(task, { state: 'queued', progress: 10, raw: {} }, 10);
    expect(backwards.status).toBe('IN_PROGRESS');
    expect(backwards.changes.status).toBeUndefined();
    expect(backwards.changes.progress).toBe(40); // progress never goes back either
    expect(await t.transitions.applyPlan(task, backwards)).toBe('IN_PROGRESS');
    expect((await stored(task.id)).status).toBe('IN_PROGRESS');

    const done = t.transitions.planPoll(task, { state: 'succeeded', videoUrl: 'https://v/1.mp4', raw: {} }, 90);
    expect(await t.transitions.applyPlan(task, done)).toBe('SUCCESS');
    expect(await stored(task.id)).toMatchObject({ status: 'SUCCESS', progress: 100, resultUrl: 'https://v/1.mp4' });

    // after SUCCESS: a running report does not reopen it, a failure is refused without a refund
    const reopen = t.transitions.planPoll(task, { state: 'running', raw: {} }, 50);
    expect(reopen.status).toBe('SUCCESS');
    expect(reopen.changes.status).toBeUndefined();
    expect(await t.transitions.fail(task, 'late failure')).toBe(false);
    expect(await stored(task.id)).toMatchObject({ status: 'SUCCESS', failReason: null });
    expect(await refundRows(task.taskId)).toHaveLength(0);
    expect(await t.balance(user.id)).toEqual({ quota: 700, usedQuota: 300 });
  });

  it("a finished task's size stays what it asked, whatever the provider says it made; one that asked none takes the provider's", async () => {
    const sharper: PollOutcome = { state: 'succeeded', videoUrl: 'https://v/2.mp4', outputSize: '1920x1080', raw: {} };
    const { task: asked } = await chargedTask('IN_PROGRESS', 300, { outputSize: '1280x720' });
    expect(t.transitions.planPoll(asked, sharper, 90).changes.outputSize).toBe('1280x720');
    const { task: open } = await chargedTask('IN_PROGRESS', 300, { outputSize: null });
    expect(t.transitions.planPoll(open, sharper, 90).changes.outputSize).toBe('1920x1080');
  });

  it('reject at submit reverts the charge, only for the lease holder, once', async () => {
    const { user, task } = await chargedTask('SUBMITTING', 250, { leaseOwner: 'instance-a', leaseUntil: t.clock.now() + 60_000 });
    expect(await t.transitions.reject({ ...task }, 'bad prompt', 'instance-b')).toBe(false);
    expect((await stored(task.id)).status).toBe('SUBMITTING');
    expect(await t.balance(user.id)).toEqual({ quota: 750, usedQuota: 250 });

    expect(await t.transitions.reject(task, 'bad prompt', 'instance-a')).toBe(true);
    expect(await stored(task.id)).toMatchObject({ status: 'REJECTED', failReason: 'bad prompt', leaseOwner: null });
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    const refunds = await refundRows(task.taskId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].detail).toMatch(/rejected at submit: bad prompt/);

    expect(await t.transitions.reject(task, 'bad prompt', 'instance-a')).toBe(false);
    expect(await refundRows(task.taskId)).toHaveLength(1);
  });

  /** A SUBMITTING task whose charge is held, as TaskSubmitService records it. */
  async function heldTask(quota = 250) {
    const user = await t.createUser(1_000);
    const task = await t.createTask(user.id, { status: 'SUBMITTING', quota, leaseOwner: 'instance-a', leaseUntil: t.clock.now() + 60_000 });
    await t.transactions.run((m) =>
      t.ledger.holdIfEnough(m, { userId: user.id, taskId: task.taskId, model: task.model, quota, detail: 'hold' }),
    );
    return { user, task };
  }
  const typesOf = async (userId: number) => (await t.ledgerRows(userId)).map((row) => `${row.type} ${row.quota}`);

  it("a refused submit releases its hold: no charge and no refund, nothing in the customer's ledger", async () => {
    const { user, task } = await heldTask();
    expect(await t.transitions.reject(task, 'bad prompt', 'instance-a')).toBe(true);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    expect(await typesOf(user.id)).toEqual(['hold -250', 'release 250']);
    expect(await t.transitions.reject(task, 'bad prompt', 'instance-a')).toBe(false);
    expect(await typesOf(user.id)).toHaveLength(2);
  });

  it('a task failing straight from SUBMITTING is one the client sees: its hold becomes the charge, refunded once', async () => {
    const { user, task } = await heldTask();
    expect(await t.transitions.fail(task, 'content moderation failed', {}, 'instance-a')).toBe(true);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
    expect(await typesOf(user.id)).toEqual(['consume -250', 'refund 250']);
  });

  it('a free task fails without a ledger row', async () => {
    const user = await t.createUser(1_000);
    const task = await t.createTask(user.id, { status: 'QUEUED', quota: 0 });
    expect(await t.transitions.fail(task, 'broken')).toBe(true);
    expect(await t.ledgerRows(user.id)).toHaveLength(0);
    expect(await t.balance(user.id)).toEqual({ quota: 1_000, usedQuota: 0 });
  });

  it("a provider's report counts for the attempt and channel that was read, even when the task moved on to another meanwhile", async () => {
    const from = t.clock.now();
    const { task } = await chargedTask('IN_PROGRESS', 300, { channelId: 71 });
    const usageOf = async () =>
      Object.fromEntries((await t.tasks.stats.chargedAndProviderUsageByChannel(from)).usage.map((row) => [row.channelId, row.amount]));
    // A poll of channel 71 reports 40 credits: the first attempt's, on 71.
    const running: PollOutcome = { state: 'running', raw: {}, providerUsage: { unit: 'credits', amount: 40 } };
    expect(await t.transitions.applyPlan(task, t.transitions.planPoll(task, running, 10))).toBe('IN_PROGRESS');
    // A cancel read channel 71 (its copy of the task), while a provider retry moved the task to channel 72.
    const cancelsCopy = { ...task };
    await t.dataSource.manager.update(TaskEntity, { id: task.id }, { channelId: 72, providerRetries: 1, providerUsage: null });
    const failedThere: PollOutcome = { ...failed, providerUsage: { unit: 'credits', amount: 70 } };
    expect(await t.transitions.applyPlan(cancelsCopy, t.transitions.planPoll(cancelsCopy, failedThere, 50))).toBe('FAILURE');
    expect(await usageOf()).toEqual({ 71: 70 });
    expect(await t.tasks.reads.providerUsageOf(task.id)).toEqual([
      { attempt: 0, channelId: 71, unit: 'credits', amount: 70, reportedAt: expect.any(Number) },
    ]);
  });
});
