import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

const DAY_MS = 86_400_000;

/** The customer's overview charts and the money the console shows quota as, over real tasks on the simulator. */
describeEachDatabase('console overview and money', (kind) => {
  let gw: TestGateway;
  let counter = 0;

  async function customer(quota: number) {
    const username = `ov_${kind}_${++counter}`;
    const { body } = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota }).expect(201);
    const key = await gw.admin.post(`/api/admin/users/${body.id}/keys`, { name: 'k' }).expect(201);
    const signIn = async () => {
      const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
      const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
      return { session: session.body, get: (path: string) => gw.http.get(path).set('Cookie', cookie) };
    };
    return { id: body.id as number, key: key.body.key as string, ...(await signIn()), signIn };
  }

  const submit = (key: string, prompt: string, expected = 200) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration: 5 }).expect(expected);

  const quotaOf = async (taskId: string) => (await gw.admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body.quota as number;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on', QUOTA_PER_UNIT: '20000', CURRENCY: 'EUR' });
  });
  afterAll(async () => gw?.close());

  it('charts net spend, refunds and the closing balance per UTC day, and spend per model, only of what the customer paid', async () => {
    const me = await customer(100_000);
    const ok = await submit(me.key, 'yesterday: a fox in snow');
    const failed = await submit(me.key, 'yesterday: a storm [simulate:fail]');
    await submit(me.key, 'refused [simulate:reject]', 400);
    gw.clock.advance(7_000);
    await gw.sync();
    const [okQuota, failedQuota] = [await quotaOf(ok.body.id), await quotaOf(failed.body.id)];
    const yesterdayBalance = 100_000 - okQuota;
    expect(await gw.balance(me.id)).toEqual({ quota: yesterdayBalance, used_quota: okQuota });

    // A day later: one more task today, and another account's spending that must not show.
    gw.clock.advance(DAY_MS);
    const today = await submit(me.key, 'today: a quiet pond');
    const todayQuota = await quotaOf(today.body.id);
    const other = await customer(100_000);
    await submit(other.key, 'not yours');

    // The session of a day ago has expired: sign in again.
    const console = await me.signIn();
    const overview = (await console.get('/console/api/overview').expect(200)).body;
    const todayDate = new Date(gw.clock.now()).toISOString().slice(0, 10);
    const yesterdayDate = new Date(gw.clock.now() - DAY_MS).toISOString().slice(0, 10);
    expect(overview).toMatchObject({
      range: '30d',
      balance: yesterdayBalance - todayQuota,
      currency: { code: 'EUR', quota_per_unit: 20000 },
    });
    expect(overview.days).toHaveLength(30);
    expect(overview.days.slice(-2)).toEqual([yesterdayDate, todayDate]);
    expect(overview.spend_by_day.slice(-2)).toEqual([okQuota, todayQuota]);
    expect(overview.spend_by_day.slice(0, 28)).toEqual(new Array(28).fill(0));
    expect(overview.refund_by_day.slice(-2)).toEqual([failedQuota, 0]);
    expect(overview.balance_by_day.slice(-2)).toEqual([yesterdayBalance, yesterdayBalance - todayQuota]);
    // The account was made yesterday: the days before it have no balance (nothing drawn), never 0.
    expect(overview.balance_by_day.slice(0, 28)).toEqual(new Array(28).fill(null));
    expect(overview.spend_by_model).toEqual([{ model: 'alpha/v6', quota: okQuota + todayQuota, tasks: 3 }]);

    const week = (await console.get('/console/api/overview?range=7d').expect(200)).body;
    expect(week.days).toHaveLength(7);
    expect(week.spend_by_day.slice(-2)).toEqual([okQuota, todayQuota]);
    const bad = await console.get('/console/api/overview?range=1d').expect(400);
    expect(JSON.stringify(bad.body)).toContain('range');
    await gw.http.get('/console/api/overview').expect(401);
    await gw.sync();
  });

  it('tells the console the currency at sign-in and on the session, and each price in money', async () => {
    const me = await customer(0);
    expect(me.session.currency).toEqual({ code: 'EUR', quota_per_unit: 20000 });
    expect((await me.get('/console/api/session').expect(200)).body.currency).toEqual({ code: 'EUR', quota_per_unit: 20000 });
    const admin = await gw.http.post('/console/api/session').send({ admin_token: ADMIN_TOKEN }).expect(200);
    expect(admin.body.currency).toEqual({ code: 'EUR', quota_per_unit: 20000 });
    const saved = await gw.admin
      .put('/api/admin/prices', { model: 'alpha/v6', resolution: '1080p', unit: 'second', price: 30_000 })
      .expect(200);
    expect(saved.body).toMatchObject({ price: 30_000, money: 1.5 });
    const prices = (await gw.admin.get('/api/admin/prices').expect(200)).body;
    expect(prices.currency).toEqual({ code: 'EUR', quota_per_unit: 20000 });
    for (const row of prices.data) expect(row.money).toBeCloseTo(row.price / 20000, 6);
  });
});
