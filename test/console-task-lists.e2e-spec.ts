import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

/** Search, filters and order of the console's task lists, customer and admin, over real tasks on the simulator. */
describeEachDatabase('console task lists', (kind) => {
  let gw: TestGateway;
  let counter = 0;

  async function customer(quota: number) {
    const username = `tl_${kind}_${++counter}`;
    const { body } = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota }).expect(201);
    const key = await gw.admin.post(`/api/admin/users/${body.id}/keys`, { name: 'k' }).expect(201);
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
    return { id: body.id as number, key: key.body.key as string, get: (path: string) => gw.http.get(path).set('Cookie', cookie) };
  }

  const submit = async (key: string, prompt: string, duration = 5) =>
    (await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration }).expect(200)).body
      .id as string;

  const ids = (body: { data: Array<{ task_id: string }> }) => body.data.map((row) => row.task_id);

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => gw?.close());

  it('searches by task id and prompt, filters, sorts, and shows the prompt, reason and cost of each row', async () => {
    const me = await customer(1_000_000);
    const sunrise = await submit(me.key, 'A Sunrise over the bay', 5);
    const literal = await submit(me.key, 'sale: 100%_off today', 10);
    const lookalike = await submit(me.key, 'sale: 100 x off today', 5);
    const failed = await submit(me.key, 'a storm at sea [simulate:fail]', 5);
    const long = await submit(me.key, `${'a very long prompt '.repeat(12)}end`, 5);
    const stranger = await customer(1_000_000);
    await submit(stranger.key, 'a sunrise that is not yours');
    gw.clock.advance(7_000);
    await gw.sync();

    expect(ids((await me.get('/console/api/tasks?q=sunrise').expect(200)).body)).toEqual([sunrise]);
    // % and _ are the characters themselves, never wildcards.
    expect(ids((await me.get(`/console/api/tasks?q=${encodeURIComponent('100%_off')}`).expect(200)).body)).toEqual([literal]);
    expect(ids((await me.get(`/console/api/tasks?q=${lookalike.slice(0, 14)}`).expect(200)).body)).toEqual([lookalike]);
    expect(ids((await me.get(`/console/api/tasks?q=${failed}`).expect(200)).body)).toEqual([failed]);
    const both = (await me.get('/console/api/tasks?q=sale&status=completed&model=alpha/v6').expect(200)).body;
    expect(both.total).toBe(2);
    expect(ids(both)).toEqual([lookalike, literal]);

    const rows = (await me.get('/console/api/tasks?page_size=50').expect(200)).body.data as Array<Record<string, any>>;
    const row = (taskId: string) => rows.find((entry) => entry.task_id === taskId)!;
    expect(row(sunrise)).toMatchObject({ prompt: 'A Sunrise over the bay', failure_reason: null, quota: expect.any(Number) });
    expect(row(failed)).toMatchObject({ status: 'failed', failure_reason: 'generation failed' });
    expect([...row(long).prompt]).toHaveLength(120);
    expect(row(long).prompt.endsWith('…')).toBe(true);
    expect(row(literal).quota).toBeGreaterThan(row(lookalike).quota);

    const byCost = (await me.get('/console/api/tasks?sort=-cost').expect(200)).body;
    expect(ids(byCost)[0]).toBe(literal);
    const costs = byCost.data.map((entry: { quota: number }) => entry.quota);
    expect(costs).toEqual([...costs].sort((a: number, b: number) => b - a));
    const cheapest = (await me.get('/console/api/tasks?sort=cost').expect(200)).body;
    expect(ids(cheapest)[ids(cheapest).length - 1]).toBe(literal);
    expect(ids((await me.get('/console/api/tasks?sort=created_at').expect(200)).body)).toEqual([sunrise, literal, lookalike, failed, long]);
    expect(ids((await me.get('/console/api/tasks').expect(200)).body)).toEqual([long, failed, lookalike, literal, sunrise]);

    const badSort = await me.get('/console/api/tasks?sort=price').expect(400);
    expect(JSON.stringify(badSort.body)).toContain('sort');
    const badQ = await me.get(`/console/api/tasks?q=${'x'.repeat(201)}`).expect(400);
    expect(JSON.stringify(badQ.body)).toContain('q');

    // The admin list: the same search over every account, ordered by the unified status.
    const admin = (await gw.admin.get('/api/admin/tasks?q=sunrise').expect(200)).body;
    expect(admin.total).toBe(2);
    expect(admin.data[0]).toMatchObject({ prompt: 'a sunrise that is not yours', user_id: stranger.id });
    expect(ids((await gw.admin.get(`/api/admin/tasks?q=sunrise&user_id=${me.id}`).expect(200)).body)).toEqual([sunrise]);
    const byStatus = (await gw.admin.get(`/api/admin/tasks?user_id=${me.id}&sort=status`).expect(200)).body.data as Array<{
      status: string;
      failure_reason: string | null;
    }>;
    expect(byStatus.map((entry) => entry.status)).toEqual(['FAILURE', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(byStatus[0].failure_reason).toBe('generation failed');
    const badAdminSort = await gw.admin.get('/api/admin/tasks?sort=-price').expect(400);
    expect(JSON.stringify(badAdminSort.body)).toContain('sort');
  });
});
