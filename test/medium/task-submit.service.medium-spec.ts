import type { ApiKeyEntity } from '../../src/auth/api-key.entity';
import type { UserEntity } from '../../src/auth/user.entity';
import type { SubmitInput } from '../../src/families/family';
import { createWithFakeChannel, FAKE_MODEL, type ServiceTestContext } from './support/service-test-module';
import { UpstreamError } from '../../src/upstream/upstream-adapter';
import { TaskEntity } from '../../src/tasks/task.entity';

/**
 * The submit pipeline through the real ledger, on SQLite, with the fake family registered like
 * a real one: what the customer's balance and ledger show after each kind of submit.
 */
describe('SubmitPipeline + TaskSubmitService (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  let price: number;
  /** Each test's customer starts with ten submits' worth. */
  let start: number;
  beforeAll(async () => {
    ({ t, price } = await createWithFakeChannel());
    start = 10 * price;
  });
  afterAll(() => t.close());
  afterEach(() => {
    t.adapter.nextSubmit = { upstreamTaskId: 'up_1' };
  });

  const input = (body: Record<string, unknown> = {}): SubmitInput => ({
    form: 'unified',
    body: { model: FAKE_MODEL, ...body },
  });
  const caller = (user: UserEntity, models: string[] | null = null) => ({ user, apiKey: { id: 1, models } as ApiKeyEntity });
  const types = async (userId: number) => (await t.ledgerRows(userId)).map((row) => `${row.type} ${row.quota}`);
  const stored = (taskId: string) => t.dataSource.manager.findOneByOrFail(TaskEntity, { taskId });

  it('charges once and records the task as submitted upstream', async () => {
    expect(price).toBeGreaterThan(0);
    const user = await t.createUser(start);
    const task = await t.pipeline.submit(input(), caller(user), {});
    expect(task).toMatchObject({ status: 'NOT_START', upstreamTaskId: 'up_1', quota: price });
    expect(await t.balance(user.id)).toEqual({ quota: start - price, usedQuota: price });
    expect(await types(user.id)).toEqual([`consume ${-price}`]);
  });

  it('a balance below the price is a 402 that records nothing and calls no upstream', async () => {
    const user = await t.createUser(price - 1);
    const before = t.adapter.submitted.length;
    await expect(t.pipeline.submit(input(), caller(user), {})).rejects.toMatchObject({ code: 'insufficient_quota' });
    expect(await t.balance(user.id)).toEqual({ quota: price - 1, usedQuota: 0 });
    expect(await t.ledgerRows(user.id)).toEqual([]);
    expect(await t.dataSource.manager.countBy(TaskEntity, { userId: user.id })).toBe(0);
    expect(t.adapter.submitted.length).toBe(before);
  });

  it("a model outside the key's allowlist is refused before any charge", async () => {
    const user = await t.createUser(start);
    await expect(t.pipeline.submit(input(), caller(user, ['other-model']), {})).rejects.toMatchObject({
      message: `api key is not allowed to use model ${FAKE_MODEL}`,
    });
    expect(await t.balance(user.id)).toEqual({ quota: start, usedQuota: 0 });
    expect(await t.ledgerRows(user.id)).toEqual([]);
  });

  it('the same Idempotency-Key and body return the first task, charged once; another body is a 409', async () => {
    const user = await t.createUser(start);
    const first = await t.pipeline.submit(input({ prompt: 'a' }), caller(user), { idempotencyKey: 'key-1' });
    const again = await t.pipeline.submit(input({ prompt: 'a' }), caller(user), { idempotencyKey: 'key-1' });
    expect(again.taskId).toBe(first.taskId);
    expect(await t.balance(user.id)).toEqual({ quota: start - price, usedQuota: price });
    expect(await types(user.id)).toEqual([`consume ${-price}`]);
    await expect(t.pipeline.submit(input({ prompt: 'b' }), caller(user), { idempotencyKey: 'key-1' })).rejects.toMatchObject({
      code: 'conflict',
      options: { param: 'Idempotency-Key' },
    });
    expect(await t.balance(user.id)).toEqual({ quota: start - price, usedQuota: price });
  });

  it('an upstream failure on every channel is a 503 and gives the whole charge back', async () => {
    const user = await t.createUser(start);
    t.adapter.nextSubmit = new UpstreamError('transient', 'upstream 502');
    await expect(t.pipeline.submit(input(), caller(user), {})).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await t.balance(user.id)).toEqual({ quota: start, usedQuota: 0 });
    const [task] = await t.dataSource.manager.findBy(TaskEntity, { userId: user.id });
    expect((await stored(task.taskId)).status).toBe('REJECTED');
    // The client never got that task: a hold and its release, never a charge and a refund.
    expect(await types(user.id)).toEqual([`hold ${-price}`, `release ${price}`]);
  });

  it('a refusal of the input is a 400; busy is a 429 with Retry-After; neither costs anything', async () => {
    const user = await t.createUser(start);
    t.adapter.nextSubmit = new UpstreamError('invalid_input', 'bad prompt');
    await expect(t.pipeline.submit(input(), caller(user), {})).rejects.toMatchObject({ code: 'invalid_request' });
    t.adapter.nextSubmit = new UpstreamError('backpressure', 'busy', { retryAfterSeconds: 7 });
    await expect(t.pipeline.submit(input(), caller(user), {})).rejects.toMatchObject({
      code: 'rate_limited',
      options: { retryAfterSeconds: 7 },
    });
    expect(await t.balance(user.id)).toEqual({ quota: start, usedQuota: 0 });
    expect((await t.ledgerRows(user.id)).map((row) => row.type)).toEqual(['hold', 'release', 'hold', 'release']);
  });

  it('a moderation refusal at submit is a task the client gets, failed and refunded once', async () => {
    const user = await t.createUser(start);
    t.adapter.nextSubmit = new UpstreamError('moderation', 'refused');
    const task = await t.pipeline.submit(input(), caller(user), {});
    expect(task).toMatchObject({ status: 'FAILURE', failReason: 'content moderation failed' });
    expect(await t.balance(user.id)).toEqual({ quota: start, usedQuota: 0 });
    expect(await types(user.id)).toEqual([`consume ${-price}`, `refund ${price}`]);
  });
});
