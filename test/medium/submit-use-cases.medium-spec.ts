import type { UserEntity } from '../../src/auth/user.entity';
import { HandToProvider } from '../../src/tasks/submit/hand-to-provider';
import { onOneRoute, storedRoute } from '../../src/tasks/dispatch/dispatch-plan';
import { SubmitHold, type HoldRequest } from '../../src/tasks/submit/submit-hold';
import { IDEMPOTENCY_WINDOW_MS, SubmitIdempotency } from '../../src/tasks/submit/submit-idempotency';
import { SubmitSettlement } from '../../src/tasks/submit/submit-settlement';
import type { TaskDraft } from '../../src/tasks/task-draft';
import { TaskEntity } from '../../src/tasks/task.entity';
import type { ChannelEntity } from '../../src/upstream/channel.entity';
import { UpstreamError, type UpstreamAdapter } from '../../src/upstream/upstream-adapter';
import { createServiceTestModule, FAKE_MODEL, FAKE_PLATFORM, type ServiceTestContext } from './support/service-test-module';

/**
 * The submit's use cases one by one (src/tasks/submit/), on a migrated SQLite file with the fake
 * family: what each leaves in the task table and the customer's ledger.
 */
describe('submit use cases (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  let channels: ChannelEntity[];
  let price: number;
  beforeAll(async () => {
    t = await createServiceTestModule();
    channels = [await t.createChannel({ name: 'first' }), await t.createChannel({ name: 'second' })];
    price = await t.fakePrice();
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.adapter.nextSubmit = { upstreamTaskId: 'up_1' };
  });

  const hold = () => t.module.get(SubmitHold);
  const adapter = () => t.adapter as unknown as UpstreamAdapter;
  /** Every channel, in order, by the task's own route: the fake family, its default upstream model. */
  const onChannels = (task: TaskEntity) => onOneRoute(channels, storedRoute(task, adapter(), adapter().defaultUpstreamModel(FAKE_MODEL)));
  const handOver = (task: TaskEntity) => t.module.get(HandToProvider).send(task, onChannels(task));
  const draft = (prompt: string, idempotencyKey?: string): TaskDraft => ({
    platform: FAKE_PLATFORM,
    model: FAKE_MODEL,
    action: 'textGenerate',
    request: { prompt },
    quote: { model: FAKE_MODEL, resolution: '720p', seconds: 5 },
    idempotencyKey,
  });
  const holdRequest = (user: UserEntity, prompt = 'a cat', idempotencyKey?: string): HoldRequest => {
    const d = draft(prompt, idempotencyKey);
    return {
      draft: d,
      caller: { user },
      channel: channels[0],
      adapter: adapter(),
      quota: price,
      quoteDetail: 'test price',
      priceBasis: null,
      requestHash: t.module.get(SubmitIdempotency).hash(d),
    };
  };
  const recorded = async (user: UserEntity, prompt = 'a cat', idempotencyKey?: string) => {
    const request = holdRequest(user, prompt, idempotencyKey);
    return hold().record(hold().newTask(request), request);
  };
  /** What the customer's ledger shows as charged and refunded (holds and their releases are bookkeeping of the submit). */
  const types = async (userId: number) =>
    (await t.ledgerRows(userId)).map((row) => row.type).filter((type) => type === 'consume' || type === 'refund');
  const stored = (taskId: string) => t.dataSource.manager.findOneByOrFail(TaskEntity, { taskId });

  describe('SubmitHold', () => {
    it('records the task SUBMITTING, leased, with its charge held (the balance moves, no consume row yet)', async () => {
      const user = await t.createUser(10 * price);
      const task = await recorded(user);
      expect(await stored(task.taskId)).toMatchObject({ status: 'SUBMITTING', quota: price, channelId: channels[0].id, prompt: 'a cat' });
      expect((await stored(task.taskId)).leaseOwner).not.toBeNull();
      expect((await t.balance(user.id)).quota).toBe(9 * price);
    });

    it('a balance below the price is a 402 and records nothing', async () => {
      const user = await t.createUser(price - 1);
      const request = holdRequest(user);
      await expect(hold().record(hold().newTask(request), request)).rejects.toMatchObject({ code: 'insufficient_quota' });
      expect(await t.dataSource.manager.countBy(TaskEntity, { userId: user.id })).toBe(0);
      expect(await t.balance(user.id)).toEqual({ quota: price - 1, usedQuota: 0 });
    });
  });

  describe('SubmitIdempotency', () => {
    const idempotency = () => t.module.get(SubmitIdempotency);

    it('returns the earlier task of the key; another body is a 409 naming Idempotency-Key; one in flight is a 409 to retry', async () => {
      const user = await t.createUser(10 * price);
      const task = await recorded(user, 'a dog', 'key-1');
      const same = idempotency().hash(draft('a dog'));
      await expect(idempotency().earlierTask(user.id, 'key-1', same)).rejects.toMatchObject({
        code: 'conflict',
        options: { param: 'Idempotency-Key', retryAfterSeconds: 1 },
      });
      await handOver(task);
      expect(await idempotency().earlierTask(user.id, 'key-1', same)).toMatchObject({ taskId: task.taskId, status: 'NOT_START' });
      await expect(idempotency().earlierTask(user.id, 'key-1', idempotency().hash(draft('a bird')))).rejects.toMatchObject({
        message: 'Idempotency-Key was already used with a different request body',
      });
    });

    it('frees the key of a refused task, and of one older than the window', async () => {
      const user = await t.createUser(10 * price);
      const refused = await recorded(user, 'refused', 'key-2');
      await t.transitions.reject(refused, 'no channel');
      expect(await idempotency().earlierTask(user.id, 'key-2', refused.requestHash!)).toBeNull();
      expect((await stored(refused.taskId)).idempotencyKey).toBeNull();

      const old = await recorded(user, 'old', 'key-3');
      await handOver(old);
      t.clock.advance(IDEMPOTENCY_WINDOW_MS + 1);
      expect(await idempotency().earlierTask(user.id, 'key-3', old.requestHash!)).toBeNull();
    });
  });

  describe('HandToProvider', () => {
    const send = handOver;

    it('accepted: NOT_START with the provider id, the hold turned into one consume row', async () => {
      const user = await t.createUser(10 * price);
      const task = await send(await recorded(user));
      expect(await stored(task.taskId)).toMatchObject({ status: 'NOT_START', upstreamTaskId: 'up_1', leaseOwner: null });
      expect(await types(user.id)).toEqual(['consume']);
    });

    it('channel trouble on the first channel: the second one gets the task', async () => {
      const user = await t.createUser(10 * price);
      const task = await recorded(user);
      const answers = [new UpstreamError('channel', 'bad key'), { upstreamTaskId: 'up_second' }];
      const submit = t.adapter.submit.bind(t.adapter);
      t.adapter.submit = async (entity) => {
        t.adapter.nextSubmit = answers.shift()!;
        return submit(entity);
      };
      try {
        await send(task);
      } finally {
        t.adapter.submit = submit;
      }
      expect(await stored(task.taskId)).toMatchObject({ status: 'NOT_START', upstreamTaskId: 'up_second', channelId: channels[1].id });
    });

    it('moderation: the client gets the task failed, refunded; invalid input: a 400, the hold released', async () => {
      const user = await t.createUser(10 * price);
      t.adapter.nextSubmit = new UpstreamError('moderation', 'refused content');
      const moderated = await send(await recorded(user));
      expect(await stored(moderated.taskId)).toMatchObject({ status: 'FAILURE', failReason: 'content moderation failed' });
      expect(await types(user.id)).toEqual(['consume', 'refund']);

      t.adapter.nextSubmit = new UpstreamError('invalid_input', 'bad size');
      const invalid = await recorded(user);
      await expect(send(invalid)).rejects.toMatchObject({ code: 'invalid_request', message: 'upstream rejected the request: bad size' });
      expect(await stored(invalid.taskId)).toMatchObject({ status: 'REJECTED' });
      expect(await types(user.id)).toEqual(['consume', 'refund']);
      expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    });

    it('back-pressure on every channel: a 429 with Retry-After, the hold released', async () => {
      const user = await t.createUser(10 * price);
      t.adapter.nextSubmit = new UpstreamError('backpressure', 'busy', { retryAfterSeconds: 7 });
      const task = await recorded(user);
      await expect(send(task)).rejects.toMatchObject({ code: 'rate_limited', options: { retryAfterSeconds: 7 } });
      expect(await stored(task.taskId)).toMatchObject({ status: 'REJECTED' });
      expect(await t.balance(user.id)).toEqual({ quota: 10 * price, usedQuota: 0 });
    });
  });

  describe('SubmitSettlement', () => {
    const settlement = () => t.module.get(SubmitSettlement);

    it('a task taken over and refused meanwhile: accepting it writes nothing, and the client gets a 503 to retry', async () => {
      const user = await t.createUser(10 * price);
      const task = await recorded(user);
      const owner = task.leaseOwner!;
      await t.transitions.reject(task, 'refused by another instance');
      await expect(settlement().accepted(task, channels[0], adapter(), { upstreamTaskId: 'late' }, owner)).rejects.toMatchObject({
        code: 'service_unavailable',
      });
      expect(await stored(task.taskId)).toMatchObject({ status: 'REJECTED', upstreamTaskId: null });
      expect(await types(user.id)).toEqual([]);
    });

    it('refuseIfSubmitting refuses a task still being submitted (its hold released) and leaves an accepted one alone', async () => {
      const user = await t.createUser(10 * price);
      const submitting = await recorded(user);
      expect(await settlement().refuseIfSubmitting(submitting.taskId, 'unconfirmed')).toMatchObject({ status: 'REJECTED' });
      const accepted = await handOver(await recorded(user));
      expect(await settlement().refuseIfSubmitting(accepted.taskId, 'unconfirmed')).toMatchObject({ status: 'NOT_START' });
      expect(await settlement().refuseIfSubmitting('task_nothere', 'unconfirmed')).toBeNull();
      expect(await t.balance(user.id)).toEqual({ quota: 9 * price, usedQuota: price });
    });
  });
});
