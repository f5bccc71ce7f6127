import { DataSource } from 'typeorm';
import { LedgerService } from '../src/billing/ledger.service';
import { TransactionRunner } from '../src/database/transaction-runner';
import { AppError } from '../src/common/errors/app-error';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

describeEachDatabase('foundation', (kind) => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startGateway(kind);
  });
  afterAll(async () => gw?.close());

  itOnSqliteOnly(kind)('serves /health, /docs and /docs-json with a request id', async () => {
    const health = await gw.http.get('/health').expect(200);
    expect(health.body.status).toBe('ok');
    expect(health.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await gw.http.get('/health').set('x-request-id', 'abc-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const docs = await gw.http.get('/docs-json').expect(200);
    expect(docs.body.paths['/api/admin/users']).toBeDefined();
    expect(docs.body.components.securitySchemes['api-key']).toMatchObject({ type: 'http', scheme: 'bearer' });
    await gw.http.get('/docs/').expect(200).expect('content-type', /html/);
  });

  itOnSqliteOnly(kind)('guards the admin API with the admin token', async () => {
    const missing = await gw.http.get('/api/admin/users/1').expect(401);
    expect(missing.body.error).toMatchObject({ message: 'missing admin token', code: 'unauthorized' });
    await gw.http.get('/api/admin/users/1').set('Authorization', 'Bearer wrong-token').expect(401);
  });

  it('creates users, tops them up and writes the ledger', async () => {
    const created = await gw.admin.post('/api/admin/users', { username: `alice_${kind}`, quota: 500 }).expect(201);
    expect(created.body).toEqual({ id: expect.any(Number), username: `alice_${kind}`, group: 'default', quota: 500, used_quota: 0 });
    const id = created.body.id;
    const topped = await gw.admin.post(`/api/admin/users/${id}/topup`, { quota: 250 }).expect(200);
    expect(topped.body).toEqual({ id, quota: 750 });
    const logs = await gw.admin.get(`/api/admin/logs?user_id=${id}&type=topup`).expect(200);
    expect(logs.body.total).toBe(2);
    expect(logs.body.data[0]).toMatchObject({ type: 'topup', user_id: id, quota: 250, balance_after: 750, task_id: null });
    const user = await gw.admin.get(`/api/admin/users/${id}`).expect(200);
    expect(user.body).toMatchObject({ id, quota: 750, used_quota: 0, status: 'active', verification_enabled: false });
  });

  itOnSqliteOnly(kind)('rejects bad admin input with a message naming the field, and unknown fields', async () => {
    const bad = await gw.admin.post('/api/admin/users', { username: 'bob', quota: -5 }).expect(400);
    expect(bad.body.error).toMatchObject({ param: 'quota', message: expect.stringContaining('quota') });
    const unknown = await gw.admin.post('/api/admin/users', { username: 'bob', color: 'red' }).expect(400);
    expect(unknown.body.error.message).toMatch(/color/);
    const topup = await gw.admin.post('/api/admin/users/1/topup', { quota: 0 }).expect(400);
    expect(topup.body.error.param).toBe('quota');
    await gw.admin.get('/api/admin/users/999999').expect(404);
    await gw.admin.post('/api/admin/users/999999/topup', { quota: 5 }).expect(404);
  });

  itOnSqliteOnly(kind)('takes video submits up to 20 MB and other bodies up to 1 MB, with 413 past that and nothing charged', async () => {
    const { key, userId } = await gw.createCustomer({ quota: 100 });
    const submit = (payload: string) =>
      gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send(payload);
    const dataUri = (megabytes: number) =>
      JSON.stringify({ model: 'alpha/v6', prompt: 'x', image: `data:image/png;base64,${'A'.repeat(megabytes * 1024 * 1024)}` });
    const tooLarge = await submit(dataUri(21)).expect(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'payload_too_large', message: 'request body too large' });
    const withinLimit = await submit(dataUri(15));
    expect(withinLimit.status).not.toBe(413);
    const wrapper = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(dataUri(21))
      .expect(413);
    expect(wrapper.body).toEqual({ code: 'payload_too_large', message: 'request body too large', data: null });
    await gw.admin.post('/api/admin/users', { username: 'x'.repeat(2 * 1024 * 1024) }).expect(413);
    expect(await gw.balance(userId)).toEqual({ quota: 100, used_quota: 0 });
  });

  it('shows an API key once and stores only its hash', async () => {
    const { userId, key } = await gw.createCustomer();
    expect(key).toMatch(/^sk-[A-Za-z0-9]{32,}$/);
    const listed = await gw.admin.get(`/api/admin/users/${userId}/keys`).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    const dataSource = gw.app.get(DataSource);
    for (const table of ['api_keys', 'users', 'logs', 'settings']) {
      const rows = await dataSource.query(`SELECT * FROM ${table}`);
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(JSON.stringify(rows)).not.toContain(key.slice(3));
    }
  });

  itOnSqliteOnly(kind)('never shows a channel provider key', async () => {
    // Family C's control-plane keys are the secret settings a family declares.
    const settings = { control_base_url: 'http://127.0.0.1:9', access_key: 'access-ssshh', secret_key: 'ssshh', poll_interval_ms: 100 };
    const id = await gw.createChannel({
      name: 'c',
      platform: 'gamma',
      base_url: 'http://127.0.0.1:9',
      api_key: 'provider-secret-123',
      models: ['gamma-2-0'],
      settings,
    });
    const one = await gw.admin.get(`/api/admin/channels/${id}`).expect(200);
    const all = await gw.admin.get('/api/admin/channels').expect(200);
    for (const body of [one.body, all.body]) {
      expect(JSON.stringify(body)).not.toContain('provider-secret-123');
      expect(JSON.stringify(body)).not.toContain('ssshh');
    }
    expect(one.body.settings.poll_interval_ms).toBe(100);
  });

  it('accepts exactly 50 of 200 concurrent charges against a balance of 50', async () => {
    const { userId } = await gw.createCustomer({ quota: 50 });
    const ledger = gw.app.get(LedgerService);
    const transactions = gw.app.get(TransactionRunner);
    const attempts = Array.from({ length: 200 }, (_, i) =>
      transactions
        .run((manager) =>
          ledger.chargeIfEnough(manager, { userId, taskId: `task_conc_${kind}_${i}`, model: 'alpha/v6', quota: 1, detail: 'test' }),
        )
        .then(() => 'ok' as const)
        .catch((error: AppError) => {
          expect(error.status).toBe(402);
          expect(error.message).toBe('insufficient user quota');
          return 'refused' as const;
        }),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r === 'ok')).toHaveLength(50);
    expect(await gw.balance(userId)).toEqual({ quota: 0, used_quota: 50 });
    const consumed = await gw.admin.get(`/api/admin/logs?user_id=${userId}&type=consume&page_size=200`).expect(200);
    expect(consumed.body.total).toBe(50);
  });

  it('moves quota once when a refund is attempted twice', async () => {
    const { userId } = await gw.createCustomer({ quota: 100 });
    const ledger = gw.app.get(LedgerService);
    const transactions = gw.app.get(TransactionRunner);
    const movement = { userId, taskId: `task_refund_${kind}`, model: 'alpha/v6', quota: 30, detail: 'test' };
    await transactions.run((manager) => ledger.chargeIfEnough(manager, movement));
    const [first, second] = await Promise.all([ledger.refundOnce(movement), ledger.refundOnce(movement)]);
    expect([first, second].sort()).toEqual([false, true]);
    expect(await ledger.refundOnce(movement)).toBe(false);
    expect(await gw.balance(userId)).toEqual({ quota: 100, used_quota: 0 });
    const refunds = await gw.admin.get(`/api/admin/logs?task_id=${movement.taskId}&type=refund`).expect(200);
    expect(refunds.body.total).toBe(1);
  });
});

describeEachDatabase('health', (kind) => {
  it('answers 503 once the database stops answering', async () => {
    const gw = await startGateway(kind);
    try {
      await gw.http.get('/health').expect(200);
      await gw.app.get(DataSource).destroy();
      const down = await gw.http.get('/health').expect(503);
      expect(down.body.status).toBe('error');
      expect(down.body.error.database.status).toBe('down');
    } finally {
      await gw.close();
    }
  });
});
