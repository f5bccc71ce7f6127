import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

/**
 * A submit the provider refuses leaves no trace the customer sees: the charge was a hold, released
 * at once; the customer's logs, totals, usage chart and task count are as if it never happened.
 */
describeEachDatabase('refused submits', (kind) => {
  let gw: TestGateway;
  let counter = 0;
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => gw?.close());

  async function customer() {
    const username = `rs_${kind}_${++counter}`;
    const { body } = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota: QUOTA }).expect(201);
    const key = (await gw.admin.post(`/api/admin/users/${body.id}/keys`, { name: 'k' }).expect(201)).body.key as string;
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
    return { userId: body.id as number, key, console: (path: string) => gw.http.get(path).set('Cookie', cookie).expect(200) };
  }
  const submit = (key: string, prompt: string) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration: 5 });

  it('a refused (400) and a busy (429) submit cost nothing and leave the customer logs, totals, usage and task count unchanged', async () => {
    const { userId, key, console } = await customer();
    const accepted = await submit(key, 'a quiet harbour').expect(200);
    const price = QUOTA - (await gw.balance(userId)).quota;
    expect(price).toBeGreaterThan(0);
    const logsBefore = (await console('/console/api/logs')).body;
    const usageBefore = (await console('/console/api/usage?days=7')).body;
    expect(usageBefore.data.at(-1)).toMatchObject({ tasks: 1, consumed: price });

    const refused = await submit(key, 'a storm [simulate:reject]').expect(400);
    expect(refused.body.error.message).toMatch(/^upstream rejected the request/);
    const busy = await submit(key, 'a storm [simulate:busy]').expect(429);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);

    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - price, used_quota: price });
    expect((await console('/console/api/logs')).body).toEqual(logsBefore);
    const usage = (await console('/console/api/usage?days=7')).body;
    expect(usage).toMatchObject({ quota: QUOTA - price, used_quota: price });
    expect(usage.data.at(-1)).toMatchObject({ tasks: 1, consumed: price, refunded: 0, spent: price });
    expect((await console('/console/api/tasks')).body).toMatchObject({
      total: 1,
      data: [expect.objectContaining({ task_id: accepted.body.id })],
    });
    const visible = await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    expect(visible.body.data.map((video: { id: string }) => video.id)).toEqual([accepted.body.id]);

    // The operator sees each refused submit as a hold and its release, never as a charge and a refund.
    const ledger = (await gw.admin.get(`/api/admin/logs?user_id=${userId}`).expect(200)).body;
    const types = (ledger.data as Array<{ type: string; task_id: string | null }>)
      .filter((log) => log.task_id !== accepted.body.id)
      .map((log) => log.type);
    expect(types.filter((type) => type === 'hold')).toHaveLength(2);
    expect(types.filter((type) => type === 'release')).toHaveLength(2);
    expect(types.filter((type) => type === 'consume' || type === 'refund')).toEqual([]);
    expect(ledger.totals).toMatchObject({ consume: -price, refund: 0, hold: -2 * price, release: 2 * price });
  });
});
