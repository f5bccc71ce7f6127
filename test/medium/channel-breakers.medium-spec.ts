import type { ApiKeyEntity } from '../../src/auth/api-key.entity';
import type { UserEntity } from '../../src/auth/user.entity';
import { DispatchPlanner } from '../../src/tasks/dispatch/dispatch-planner.service';
import type { TaskDraft } from '../../src/tasks/task-draft';
import { TaskEntity } from '../../src/tasks/task.entity';
import { TaskEventEntity } from '../../src/tasks/task-event.entity';
import type { ChannelEntity } from '../../src/upstream/channel.entity';
import { acceptedWithoutId, UpstreamError } from '../../src/upstream/upstream-adapter';
import { createServiceTestModule, FAKE_MODEL, FAKE_PLATFORM, type ServiceTestContext } from './support/service-test-module';

// Tests src/upstream/breaker/ (with the submit's failover, src/tasks/submit/hand-to-provider.ts) on SQLite, with a hand-moved clock.
describe('channel breakers (service tier, SQLite, per process)', () => {
  let t: ServiceTestContext;
  let price: number;
  let primary: ChannelEntity;
  let backup: ChannelEntity;
  const COOLDOWN = 30_000;
  const serverError = () => new UpstreamError('transient', 'InternalError: provider internal error', { httpStatus: 500 });

  beforeAll(async () => {
    t = await createServiceTestModule();
    primary = await t.createChannel({ name: 'primary', priority: 10 });
    backup = await t.createChannel({ name: 'backup', priority: 0 });
    price = await t.fakePrice();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.adapter.submitOn.clear();
    t.adapter.submittedOn = [];
    await t.breakers.close(primary.id);
    await t.breakers.close(backup.id);
  });

  const fakeDraft: TaskDraft = {
    platform: FAKE_PLATFORM,
    model: FAKE_MODEL,
    action: 'textGenerate',
    request: {},
    quote: { model: FAKE_MODEL, resolution: '720p', seconds: 5 },
  };
  const caller = (user: UserEntity) => ({ user, apiKey: { id: 1, models: null } as ApiKeyEntity });
  const submit = (user: UserEntity) => t.pipeline.submit({ form: 'unified', body: { model: FAKE_MODEL } }, caller(user), {});
  const on = (channel: ChannelEntity) => t.adapter.submittedOn.filter((id) => id === channel.id).length;
  const eventsOf = async (taskId: string) => {
    const task = await t.dataSource.manager.findOneByOrFail(TaskEntity, { taskId });
    return (await t.dataSource.manager.find(TaskEventEntity, { where: { taskRowId: task.id }, order: { id: 'ASC' } })).map(
      (event) => `${event.kind}${event.detail ? `: ${event.detail}` : ''}`,
    );
  };

  it('a channel answering every submit 500: five submits reach it, then it is passed over; every submit is served by the other, charged once', async () => {
    t.adapter.submitOn.set(primary.id, serverError());
    const user = await t.createUser(100 * price);
    for (let i = 0; i < 20; i++) expect(await submit(user)).toMatchObject({ status: 'NOT_START', channelId: backup.id });
    expect(on(primary)).toBe(5);
    expect(on(backup)).toBe(20);
    expect(await t.balance(user.id)).toEqual({ quota: 80 * price, usedQuota: 20 * price });
    expect(t.breakers.view(primary.id)).toMatchObject({ state: 'open', failures: 5 });
    const plan = await t.module.get(DispatchPlanner).forSubmit(fakeDraft, { user }, []);
    expect(plan.candidates.map(({ channel }) => channel.id)).toEqual([backup.id]);
  });

  it('the timeline names each channel tried: the one that failed, then the one that took the task', async () => {
    t.adapter.submitOn.set(primary.id, serverError());
    const task = await submit(await t.createUser(10 * price));
    expect(await eventsOf(task.taskId)).toEqual([
      'created',
      `attempt: channel #${primary.id} (primary) failed: transient: InternalError: provider internal error`,
      `submitted: channel #${backup.id} (backup)`,
    ]);
  });

  it('after its cool-down one submit at a time tries it (half-open); a failed trial opens it for twice as long; an acceptance closes it', async () => {
    t.adapter.submitOn.set(primary.id, serverError());
    const user = await t.createUser(100 * price);
    for (let i = 0; i < 5; i++) await submit(user);
    const opened = t.breakers.view(primary.id);
    expect(opened).toMatchObject({ state: 'open', failures: 5 });
    expect(opened.retry_at! - opened.opened_at!).toBe(COOLDOWN / 1000);

    t.clock.advance(COOLDOWN - 1);
    await submit(user);
    expect(on(primary)).toBe(5);
    t.clock.advance(1);
    expect(t.breakers.view(primary.id).state).toBe('half_open');
    // One trial at a time: while one submit holds it, another passes the channel over.
    expect(await t.breakers.admit(primary.id)).toEqual({ trial: true, counted: false });
    expect(await t.breakers.admit(primary.id)).toBeNull();
    await t.breakers.record(primary.id, 'neutral', { trial: true, counted: false });

    await submit(user);
    expect(on(primary)).toBe(6);
    const reopened = t.breakers.view(primary.id);
    expect(reopened).toMatchObject({ state: 'open', failures: 6 });
    expect(reopened.retry_at! - reopened.opened_at!).toBe((2 * COOLDOWN) / 1000);

    t.adapter.submitOn.delete(primary.id);
    t.clock.advance(2 * COOLDOWN);
    expect(await submit(user)).toMatchObject({ channelId: primary.id });
    expect(t.breakers.view(primary.id)).toEqual({ state: 'closed', failures: 0, opened_at: null, retry_at: null });
    expect(await submit(user)).toMatchObject({ channelId: primary.id });
  });

  it('while a streak runs, no more submits go to the channel at once than the faults still missing to open it; the others try it last', async () => {
    t.adapter.submitOn.set(primary.id, serverError());
    const user = await t.createUser(100 * price);
    for (let i = 0; i < 3; i++) await submit(user);
    let release!: () => void;
    t.adapter.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const running = Array.from({ length: 4 }, () => submit(user));
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Two faults still missing: two submits under way on primary, the other two went to backup first.
      expect(t.adapter.submittedOn.slice(6).sort()).toEqual([primary.id, primary.id, backup.id, backup.id].sort());
      release();
      expect((await Promise.all(running)).map((task) => task.channelId)).toEqual([backup.id, backup.id, backup.id, backup.id]);
    } finally {
      release();
      t.adapter.hold = null;
    }
    expect(on(primary)).toBe(5);
    expect(t.breakers.view(primary.id)).toMatchObject({ state: 'open', failures: 5 });
  });

  it("the client's bad input and moderation never count; back-pressure moves on without counting", async () => {
    const user = await t.createUser(100 * price);
    t.adapter.submitOn.set(primary.id, new UpstreamError('invalid_input', 'InvalidParameter: invalid parameter'));
    for (let i = 0; i < 6; i++) await expect(submit(user)).rejects.toMatchObject({ code: 'invalid_request' });
    t.adapter.submitOn.set(primary.id, new UpstreamError('moderation', 'content moderation failed'));
    for (let i = 0; i < 6; i++) expect(await submit(user)).toMatchObject({ status: 'FAILURE' });
    t.adapter.submitOn.set(primary.id, new UpstreamError('backpressure', 'too many requests', { retryAfterSeconds: 5 }));
    for (let i = 0; i < 6; i++) expect(await submit(user)).toMatchObject({ channelId: backup.id });
    expect(on(backup)).toBe(6);
    expect(t.breakers.view(primary.id)).toMatchObject({ state: 'closed', failures: 0 });
  });

  it('auth and balance errors count; an acceptance between faults starts the count again', async () => {
    const user = await t.createUser(100 * price);
    t.adapter.submitOn.set(primary.id, new UpstreamError('channel', 'InvalidApiKey: the provider refused the API key'));
    for (let i = 0; i < 4; i++) await submit(user);
    expect(t.breakers.view(primary.id)).toMatchObject({ state: 'closed', failures: 4 });
    t.adapter.submitOn.delete(primary.id);
    await submit(user);
    expect(t.breakers.view(primary.id)).toMatchObject({ state: 'closed', failures: 0 });
  });

  it('a submit that may have been accepted is never sent elsewhere: 503, nothing charged, the channel counts a fault', async () => {
    const user = await t.createUser(10 * price);
    t.adapter.submitOn.set(primary.id, acceptedWithoutId('the provider accepted the submit without a usable id'));
    await expect(submit(user)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(on(backup)).toBe(0);
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    const [task] = await t.dataSource.manager.find(TaskEntity, { where: { userId: user.id } });
    expect(task.status).toBe('REJECTED');
    expect((await eventsOf(task.taskId))[1]).toBe(
      `attempt: channel #${primary.id} (primary) failed: transient: the provider accepted the submit without a usable id (may have been accepted: not sent elsewhere)`,
    );
    expect(t.breakers.view(primary.id).failures).toBe(1);
  });

  it('every channel open: 503 with Retry-After until the first lets a submit try again, before anything is recorded', async () => {
    const user = await t.createUser(10 * price);
    t.adapter.submitOn.set(primary.id, serverError());
    t.adapter.submitOn.set(backup.id, serverError());
    for (let i = 0; i < 5; i++) await expect(submit(user)).rejects.toMatchObject({ code: 'service_unavailable' });
    const tasks = await t.dataSource.manager.countBy(TaskEntity, { userId: user.id });
    t.clock.advance(10_000);
    await expect(submit(user)).rejects.toMatchObject({
      code: 'service_unavailable',
      message: `every channel for model ${FAKE_MODEL} is failing, retry later`,
      options: { retryAfterSeconds: 20 },
    });
    expect(await t.dataSource.manager.countBy(TaskEntity, { userId: user.id })).toBe(tasks);
    expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
  });
});
