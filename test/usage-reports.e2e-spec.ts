import { TransactionRunner } from '../src/database/transaction-runner';
import { TaskEntity } from '../src/tasks/task.entity';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

/**
 * The usage reports over ended tasks with known settlement columns (one settled with a refund, failures,
 * tasks ended before settlement kept its columns), two customers, keys, models, channels and UTC days, and
 * tasks outside the range or not ended: the exact rows of every grouping of the operator's report and of each
 * customer's (never another's tasks, never the operator's costs), the CSV bytes, and the 400s naming the field.
 * On every database: the grouping and the sums are SQL.
 */
describeEachDatabase('usage reports', (kind) => {
  let gw: TestGateway;
  let a: { userId: number; key: string; keyId: number };
  let a2: { id: number; key: string };
  let b: { userId: number; key: string; keyId: number };
  let c1: number;
  let c2: number;
  let counter = 0;

  const at = (day: 1 | 2 | 3, hour: number, minute = 0, ms = 0) => Date.UTC(2025, 2, day, hour, minute) + ms;

  beforeAll(async () => {
    gw = await startGateway(kind);
    a = await gw.createCustomer({ quota: 0 });
    b = await gw.createCustomer({ quota: 0 });
    a2 = (await gw.admin.post(`/api/admin/users/${a.userId}/keys`, { name: 'second' }).expect(201)).body;
    const channel = (name: string) =>
      gw.createChannel({ name, platform: 'alpha', base_url: 'http://127.0.0.1:9', api_key: 'k', models: ['alpha/v6'] });
    c1 = await channel('one');
    c2 = await channel('two');

    const task = (columns: Partial<TaskEntity>): Partial<TaskEntity> => ({
      taskId: `task_usage${kind}${String(++counter).padStart(20, '0')}`,
      group: 'default',
      platform: 'alpha',
      model: 'alpha/v6',
      upstreamModel: 'v6',
      action: 'textGenerate',
      progress: 100,
      request: { prompt: 'p' },
      pollFailures: 0,
      createdAt: at(1, 0),
      updatedAt: at(1, 0),
      ...columns,
    });
    const beta = { platform: 'beta' as const, model: 'beta/m1', upstreamModel: 'm1' };
    const rows = [
      // 1. A settled below what was asked: 50000 charged, 30000 paid; 5 s; cost $1.20.
      task({ userId: a.userId, apiKeyId: a.keyId, channelId: c1, status: 'SUCCESS', quota: 50_000, finishTime: at(1, 10) }),
      // 2. A failed, refunded whole.
      task({ userId: a.userId, apiKeyId: a2.id, channelId: c2, ...beta, status: 'FAILURE', quota: 20_000, finishTime: at(1, 11) }),
      // 3. A ended before settlement kept its columns: paid as charged, 0 s, cost unknown.
      task({ userId: a.userId, apiKeyId: a.keyId, channelId: c2, status: 'SUCCESS', quota: 40_000, finishTime: at(2, 1) }),
      // 4. B at the last millisecond of day 2: paid in full, 4 s, cost $0.30.
      task({ userId: b.userId, apiKeyId: b.keyId, channelId: c1, status: 'SUCCESS', quota: 10_000, finishTime: at(3, 0, 0, -1) }),
      // 5. B failed before settlement kept its columns: nothing paid.
      task({ userId: b.userId, apiKeyId: b.keyId, channelId: c2, ...beta, status: 'FAILURE', quota: 15_000, finishTime: at(1, 23) }),
      // Outside: ended at the range's end (exclusive), before its start; refused; still running.
      task({ userId: a.userId, apiKeyId: a.keyId, channelId: c1, status: 'SUCCESS', quota: 99_999, finishTime: at(3, 0) }),
      task({ userId: b.userId, apiKeyId: b.keyId, channelId: c1, status: 'SUCCESS', quota: 77_777, finishTime: at(1, 0) - 1 }),
      task({ userId: a.userId, apiKeyId: a.keyId, channelId: c1, status: 'REJECTED', quota: 55_555, finishTime: at(1, 12) }),
      task({ userId: a.userId, apiKeyId: a.keyId, channelId: c1, status: 'IN_PROGRESS', quota: 33_333, finishTime: null }),
    ];
    const settled: Array<Partial<TaskEntity> | null> = [
      { finalQuota: 30_000, usageSeconds: 5, providerCostMicroUsd: 1_200_000, settledAt: at(1, 10) },
      { finalQuota: 0, usageSeconds: 0, providerCostMicroUsd: null, settledAt: at(1, 11) },
      null,
      { finalQuota: 10_000, usageSeconds: 4, providerCostMicroUsd: 300_000, settledAt: at(3, 0, 0, -1) },
    ];
    await gw.app.get(TransactionRunner).run(async (manager) => {
      for (const [index, row] of rows.entries()) await manager.insert(TaskEntity, { ...row, ...(settled[index] ?? {}) } as never);
    });
  });
  afterAll(() => gw?.close());

  const RANGE = 'from=2025-03-01&to=2025-03-02';
  const adminReport = async (groupBy: string) => (await gw.admin.get(`/api/admin/usage?${RANGE}&group_by=${groupBy}`).expect(200)).body;
  const customerReport = async (key: string, groupBy: string) =>
    (await gw.http.get(`/v1/usage?${RANGE}&group_by=${groupBy}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
  const money = (usd_charged: number, usd_refunded: number, provider_cost_usd: number, margin_usd: number) => ({
    usd_charged,
    usd_refunded,
    provider_cost_usd,
    margin_usd,
  });

  it("the operator's report: every grouping's exact rows over the tasks that ended in [from, to)", async () => {
    const day = await adminReport('day');
    expect(day).toEqual({
      from: at(1, 0) / 1000,
      to: at(3, 0) / 1000,
      group_by: 'day',
      data: [
        { key: '2025-03-01', tasks: 3, seconds: 5, quota: 30_000, ...money(8.5, 5.5, 1.2, 1.8), tasks_without_cost: 0 },
        { key: '2025-03-02', tasks: 2, seconds: 4, quota: 50_000, ...money(5, 0, 0.3, 4.7), tasks_without_cost: 1 },
      ],
    });
    const alpha = { tasks: 3, seconds: 9, quota: 80_000, ...money(10, 2, 1.5, 6.5), tasks_without_cost: 1 };
    const beta = { tasks: 2, seconds: 0, quota: 0, ...money(3.5, 3.5, 0, 0), tasks_without_cost: 0 };
    expect((await adminReport('model')).data).toEqual([
      { key: 'alpha/v6', ...alpha },
      { key: 'beta/m1', ...beta },
    ]);
    expect((await adminReport('platform')).data).toEqual([
      { key: 'alpha', ...alpha },
      { key: 'beta', ...beta },
    ]);
    expect((await adminReport('channel')).data).toEqual([
      { key: c1, name: 'one', tasks: 2, seconds: 9, quota: 40_000, ...money(6, 2, 1.5, 2.5), tasks_without_cost: 0 },
      { key: c2, name: 'two', tasks: 3, seconds: 0, quota: 40_000, ...money(7.5, 3.5, 0, 4), tasks_without_cost: 1 },
    ]);
    const userB = { tasks: 2, seconds: 4, quota: 10_000, ...money(2.5, 1.5, 0.3, 0.7), tasks_without_cost: 0 };
    expect((await adminReport('user')).data).toEqual([
      { key: a.userId, tasks: 3, seconds: 5, quota: 70_000, ...money(11, 4, 1.2, 5.8), tasks_without_cost: 1 },
      { key: b.userId, ...userB },
    ]);
    expect((await adminReport('key')).data).toEqual(
      [
        { key: a.keyId, name: 'test', tasks: 2, seconds: 5, quota: 70_000, ...money(9, 2, 1.2, 5.8), tasks_without_cost: 1 },
        { key: a2.id, name: 'second', tasks: 1, seconds: 0, quota: 0, ...money(2, 2, 0, 0), tasks_without_cost: 0 },
        { key: b.keyId, name: 'test', ...userB },
      ].sort((x, y) => x.key - y.key),
    );
    // Unix seconds, `to` exclusive: the last millisecond of day 2 is in, the first of day 3 is not.
    const seconds = await gw.admin.get(`/api/admin/usage?from=${at(2, 0) / 1000}&to=${at(3, 0) / 1000}`).expect(200);
    expect(seconds.body.data.map((row: { key: string; tasks: number }) => [row.key, row.tasks])).toEqual([['2025-03-02', 2]]);
  });

  it("a customer's report: their own tasks only, what they paid, never the operator's costs", async () => {
    expect(await customerReport(a.key, 'day')).toEqual({
      from: at(1, 0) / 1000,
      to: at(3, 0) / 1000,
      group_by: 'day',
      data: [
        { key: '2025-03-01', tasks: 2, seconds: 5, quota: 30_000, usd: 3 },
        { key: '2025-03-02', tasks: 1, seconds: 0, quota: 40_000, usd: 4 },
      ],
    });
    expect((await customerReport(a.key, 'model')).data).toEqual([
      { key: 'alpha/v6', tasks: 2, seconds: 5, quota: 70_000, usd: 7 },
      { key: 'beta/m1', tasks: 1, seconds: 0, quota: 0, usd: 0 },
    ]);
    // Every key of the account, whichever key asks.
    expect((await customerReport(a2.key, 'key')).data).toEqual([
      { key: a.keyId, name: 'test', tasks: 2, seconds: 5, quota: 70_000, usd: 7 },
      { key: a2.id, name: 'second', tasks: 1, seconds: 0, quota: 0, usd: 0 },
    ]);
    expect((await customerReport(b.key, 'day')).data).toEqual([
      { key: '2025-03-01', tasks: 1, seconds: 0, quota: 0, usd: 0 },
      { key: '2025-03-02', tasks: 1, seconds: 4, quota: 10_000, usd: 1 },
    ]);
    expect((await customerReport(b.key, 'key')).data).toEqual([
      { key: b.keyId, name: 'test', tasks: 2, seconds: 4, quota: 10_000, usd: 1 },
    ]);
    await gw.http.get('/v1/usage').expect(401);
    await gw.http.get('/api/admin/usage').expect(401);
    await gw.http.get('/api/admin/usage').set('Authorization', `Bearer ${a.key}`).expect(401);
  });

  it('answers the same rows as a CSV attachment', async () => {
    const admin = await gw.admin.get(`/api/admin/usage?${RANGE}&group_by=channel&format=csv`).expect(200);
    expect(admin.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(admin.headers['content-disposition']).toBe('attachment; filename="usage-channel-2025-03-01-2025-03-02.csv"');
    expect(admin.text).toBe(
      'key,name,tasks,seconds,quota,usd_charged,usd_refunded,provider_cost_usd,margin_usd,tasks_without_cost\r\n' +
        `${c1},one,2,9,40000,6.000000,2.000000,1.500000,2.500000,0\r\n` +
        `${c2},two,3,0,40000,7.500000,3.500000,0.000000,4.000000,1\r\n`,
    );
    const customer = await gw.http.get(`/v1/usage?${RANGE}&format=csv`).set('Authorization', `Bearer ${b.key}`).expect(200);
    expect(customer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(customer.headers['content-disposition']).toBe('attachment; filename="usage-day-2025-03-01-2025-03-02.csv"');
    expect(customer.text).toBe('key,tasks,seconds,quota,usd\r\n2025-03-01,1,0,0,0.000000\r\n2025-03-02,1,4,10000,1.000000\r\n');
    const empty = await gw.http
      .get('/v1/usage?from=2020-01-01&to=2020-01-31&format=csv&group_by=model')
      .set('Authorization', `Bearer ${a.key}`);
    expect(empty.text).toBe('key,tasks,seconds,quota,usd\r\n');
  });

  itOnSqliteOnly(kind)('documents both routes in Swagger, JSON and CSV', async () => {
    const docs = (await gw.http.get('/docs-json').expect(200)).body;
    for (const path of ['/v1/usage', '/api/admin/usage']) {
      const operation = docs.paths[path].get;
      expect(Object.keys(operation.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
        'format',
        'from',
        'group_by',
        'to',
      ]);
    }
    expect(docs.paths['/v1/usage'].get.tags).toEqual(['usage']);
    expect(docs.paths['/api/admin/usage'].get.parameters.find((p: { name: string }) => p.name === 'group_by').schema.enum).toEqual([
      'day',
      'model',
      'channel',
      'platform',
      'user',
      'key',
    ]);
  });

  itOnSqliteOnly(kind)('refuses what makes no sense with a 400 naming the field', async () => {
    const refused = async (path: string, auth: 'admin' | 'customer') => {
      const res =
        auth === 'admin'
          ? await gw.admin.get(path).expect(400)
          : await gw.http.get(path).set('Authorization', `Bearer ${a.key}`).expect(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
      return [res.body.error.param, res.body.error.message];
    };
    expect(await refused('/api/admin/usage?from=yesterday', 'admin')).toEqual(['from', 'from must be Unix seconds or a date YYYY-MM-DD']);
    expect(await refused('/api/admin/usage?from=2025-02-30', 'admin')).toEqual(['from', 'from must be Unix seconds or a date YYYY-MM-DD']);
    expect((await refused('/api/admin/usage?from=2025-03-02&to=2025-03-01', 'admin'))[0]).toBe('to');
    expect(await refused('/api/admin/usage?from=2024-01-01&to=2025-01-01', 'admin')).toEqual([
      'to',
      'the range from from to to must be at most 366 days',
    ]);
    expect((await refused('/api/admin/usage?group_by=week', 'admin'))[0]).toBe('group_by');
    expect((await refused('/api/admin/usage?format=xml', 'admin'))[0]).toBe('format');
    expect((await refused('/v1/usage?to=1.5', 'customer'))[0]).toBe('to');
    expect(await refused('/v1/usage?group_by=channel', 'customer')).toEqual([
      'group_by',
      'group_by must be one of the following values: day, model, key',
    ]);
    expect((await refused('/v1/usage?group_by=user', 'customer'))[0]).toBe('group_by');
    expect((await refused('/v1/usage?format=pdf', 'customer'))[0]).toBe('format');
  });
});
