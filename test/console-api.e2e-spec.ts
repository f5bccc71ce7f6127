import { DataSource } from 'typeorm';
import request from 'supertest';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { startLoopbackServer, LoopbackServer } from './support/http-server';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

interface ConsoleClient {
  cookie: string;
  csrf: string;
  body: Record<string, any>;
  setCookie: string;
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  patch(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

describeEachDatabase('console sessions and console API', (kind) => {
  let gw: TestGateway;
  let upstream: LoopbackServer;
  let counter = 0;
  const name = (prefix: string) => `${prefix}_${kind}_${++counter}`;

  /**
   * Signs in through the console API and returns a client carrying the cookie and CSRF token;
   * `from`: the client address the (trusted loopback) proxy forwards, counted apart by the sign-in throttle.
   */
  async function signIn(body: object, expected = 200, from?: string): Promise<ConsoleClient> {
    const post = gw.http.post('/console/api/session');
    const res = await (from ? post.set('X-Forwarded-For', from) : post).send(body).expect(expected);
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? '';
    const cookie = setCookie.split(';')[0];
    const csrf = res.body.csrf_token;
    const withAuth = (test: request.Test, state = true) =>
      state ? test.set('Cookie', cookie).set('X-CSRF-Token', csrf) : test.set('Cookie', cookie);
    return {
      cookie,
      csrf,
      body: res.body,
      setCookie,
      get: (path) => withAuth(gw.http.get(path), false),
      post: (path, data) => withAuth(gw.http.post(path)).send(data ?? {}),
      patch: (path, data) => withAuth(gw.http.patch(path)).send(data ?? {}),
      delete: (path) => withAuth(gw.http.delete(path)),
    };
  }

  async function customer(quota = 0) {
    const username = name('cust');
    const created = await gw.admin.post('/api/admin/users', { username, password: 'correct-horse', quota }).expect(201);
    return { id: created.body.id as number, username, client: await signIn({ username, password: 'correct-horse' }) };
  }

  beforeAll(async () => {
    // The test client stands for a proxy on loopback (X-Forwarded-Proto is believed only from one).
    gw = await startGateway(kind, { TRUSTED_PROXIES: 'loopback' });
    upstream = await startLoopbackServer((_req, res) => {
      res.statusCode = 404;
      res.end('not here');
    });
  });
  afterAll(async () => {
    await upstream?.close();
    await gw?.close();
  });

  itOnSqliteOnly(kind)('serves the console page, its scripts and the chart library from the gateway under a strict CSP', async () => {
    const page = await gw.http
      .get('/console')
      .expect(200)
      .expect('content-type', /text\/html/);
    expect(page.text).toContain('<script type="module" src="/console/assets/js/main.js"></script>');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await gw.http
      .get('/console/assets/js/main.js')
      .expect(200)
      .expect('content-type', /javascript/);
    expect(script.text).toContain('ROUTES');
    await gw.http
      .get('/console/assets/console.css')
      .expect(200)
      .expect('content-type', /text\/css/);
    const chart = await gw.http
      .get('/console/vendor/uplot.esm.js')
      .expect(200)
      .expect('content-type', /javascript/);
    expect(chart.text).toContain('export { uPlot as default }');
    await gw.http
      .get('/console/vendor/uplot.min.css')
      .expect(200)
      .expect('content-type', /text\/css/);
    await gw.http.get('/console/assets/nope.js').expect(404);
    await gw.http.get('/console/vendor/package.json').expect(404);
    await gw.http.get('/console/assets/%2e%2e/%2e%2e/console.module.ts').expect((res) => expect([403, 404]).toContain(res.status));
  });

  itOnSqliteOnly(kind)('signs an admin in with the admin token into an http-only, SameSite=Strict cookie kept only as a hash', async () => {
    const admin = await signIn({ admin_token: ADMIN_TOKEN });
    expect(admin.body).toEqual({
      role: 'admin',
      kind: 'admin_token',
      user: null,
      csrf_token: expect.any(String),
      expires_at: expect.any(Number),
      currency: { code: 'USD', quota_per_unit: 10000 },
    });
    expect(admin.setCookie).toMatch(/^gw_console_session=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; Expires=.*; HttpOnly; SameSite=Strict$/);
    const sessionId = admin.cookie.split('=')[1];
    const rows = await gw.app.get(DataSource).query('SELECT * FROM console_sessions');
    expect(JSON.stringify(rows)).not.toContain(sessionId);
    expect(JSON.stringify(rows)).not.toContain(admin.csrf);
    const current = await admin.get('/console/api/session').expect(200);
    expect(current.body.csrf_token).toBe(admin.csrf);
    const wrong = await gw.http.post('/console/api/session').send({ admin_token: 'not-the-token-at-all' }).expect(401);
    expect(wrong.body.error).toMatchObject({ message: 'invalid admin token', code: 'unauthorized' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  itOnSqliteOnly(kind)('marks the cookie Secure when the browser came over https (through a trusted proxy)', async () => {
    const res = await gw.http.post('/console/api/session').set('X-Forwarded-Proto', 'https').send({ admin_token: ADMIN_TOKEN }).expect(200);
    expect(res.headers['set-cookie'][0]).toMatch(/; Secure; SameSite=Strict$/);
  });

  itOnSqliteOnly(kind)('lets an admin session use the admin API, with the CSRF token required on every state change', async () => {
    const admin = await signIn({ admin_token: ADMIN_TOKEN });
    await admin.get('/api/admin/users').expect(200);
    const username = name('viaconsole');
    const noToken = await gw.http.post('/api/admin/users').set('Cookie', admin.cookie).send({ username }).expect(403);
    expect(noToken.body.error.message).toMatch(/CSRF/);
    await gw.http.post('/api/admin/users').set('Cookie', admin.cookie).set('X-CSRF-Token', 'forged').send({ username }).expect(403);
    const other = await signIn({ admin_token: ADMIN_TOKEN });
    await gw.http.post('/api/admin/users').set('Cookie', admin.cookie).set('X-CSRF-Token', other.csrf).send({ username }).expect(403);
    const created = await admin.post('/api/admin/users', { username, quota: 10 }).expect(201);
    await admin.post(`/api/admin/users/${created.body.id}/topup`, { quota: 5 }).expect(200);
    expect(await gw.balance(created.body.id)).toEqual({ quota: 15, used_quota: 0 });
    // Without any cookie the admin API still wants the token.
    await gw.http.get('/api/admin/users').expect(401);
    await gw.http.get('/api/admin/users').set('Cookie', 'gw_console_session=made-up').expect(401);
  });

  itOnSqliteOnly(kind)('signs customers in by password, with one answer for unknown users and wrong passwords', async () => {
    const { id, username, client } = await customer(700);
    expect(client.body).toMatchObject({
      role: 'user',
      kind: 'user',
      user: { id, username, quota: 700, used_quota: 0, role: 'user', group: 'default' },
    });
    const unknown = await gw.http.post('/console/api/session').send({ username: 'nobody-here', password: 'whatever1' }).expect(401);
    const wrong = await gw.http.post('/console/api/session').send({ username, password: 'wrong-password' }).expect(401);
    expect(unknown.body.error.message).toBe('wrong username or password');
    expect(wrong.body.error.message).toBe('wrong username or password');
    const noPassword = await gw.http.post('/console/api/session').send({ username }).expect(400);
    expect(noPassword.body.error.param).toBe('password');
    const me = await client.get('/console/api/me').expect(200);
    expect(me.body).toEqual({ id, username, group: 'default', quota: 700, used_quota: 0, verification_enabled: false });
    // A customer session is not an admin's.
    await client.get('/api/admin/users').expect(401);
    await gw.http.get('/console/api/me').expect(401);
  });

  itOnSqliteOnly(kind)('signs an admin user in by password onto the admin API but not the customer pages', async () => {
    const username = name('operator');
    await gw.admin.post('/api/admin/users', { username, password: 'admin-password', role: 'admin' }).expect(201);
    const admin = await signIn({ username, password: 'admin-password' });
    expect(admin.body).toMatchObject({ role: 'admin', kind: 'user', user: { username, role: 'admin' } });
    await admin.get('/api/admin/channels').expect(200);
    const refused = await admin.get('/console/api/me').expect(403);
    expect(refused.body.error.message).toMatch(/customer accounts/);
  });

  it('lets customers create keys with an allowlist (shown once), list and revoke only their own', async () => {
    const { id, client } = await customer();
    const other = await customer();
    await gw.http.post('/console/api/keys').set('Cookie', client.cookie).send({ name: 'no-csrf' }).expect(403);
    const created = await client.post('/console/api/keys', { name: 'ci', models: ['alpha/v6', 'beta-1.0-t2v'] }).expect(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      user_id: id,
      name: 'ci',
      models: ['alpha/v6', 'beta-1.0-t2v'],
      status: 'active',
      key: expect.stringMatching(/^sk-/),
    });
    const listed = await client.get('/console/api/keys').expect(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: created.body.id,
        key_hint: created.body.key.slice(0, 7) + '...',
        models: ['alpha/v6', 'beta-1.0-t2v'],
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const bad = await client.post('/console/api/keys', { name: '' }).expect(400);
    expect(bad.body.error.param).toBe('name');
    await other.client.delete(`/console/api/keys/${created.body.id}`).expect(404);
    const revoked = await client.delete(`/console/api/keys/${created.body.id}`).expect(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: 'revoked' });
    const adminView = await gw.admin.get(`/api/admin/users/${id}/keys`).expect(200);
    expect(adminView.body.data[0].status).toBe('revoked');
  });

  it('shows a customer their own logs with type and date filters and totals, and daily usage', async () => {
    const { id, client } = await customer(1000);
    await gw.admin.post(`/api/admin/users/${id}/topup`, { quota: 250 }).expect(200);
    await gw.admin.post(`/api/admin/users/${id}/adjust`, { quota: -50, reason: 'correction' }).expect(200);
    const someoneElse = await customer(999);
    const all = await client.get('/console/api/logs').expect(200);
    expect(all.body.total).toBe(3);
    expect(all.body.totals).toEqual({ topup: 1250, consume: 0, refund: 0, adjust: -50, refused: 0, count: 3 });
    expect(all.body.data[0]).toEqual({
      id: expect.any(Number),
      type: 'adjust',
      task_id: null,
      model: null,
      quota: -50,
      balance_after: 1200,
      detail: 'correction',
      // An admin's free text has no code: the console shows it as written.
      detail_code: null,
      detail_params: null,
      reason: null,
      created_at: expect.any(Number),
    });
    expect(all.body.data.every((log: { channel_id?: unknown }) => !('channel_id' in log))).toBe(true);
    const topups = await client.get('/console/api/logs?type=topup').expect(200);
    expect(topups.body).toMatchObject({ total: 2, totals: { topup: 1250, adjust: 0, count: 2 } });
    const now = Math.floor(Date.now() / 1000);
    const future = await client.get(`/console/api/logs?from=${now + 3600}`).expect(200);
    expect(future.body).toMatchObject({ total: 0, data: [], totals: { topup: 0, count: 0 } });
    const window = await client.get(`/console/api/logs?from=${now - 3600}&to=${now + 3600}`).expect(200);
    expect(window.body.total).toBe(3);
    await client.get('/console/api/logs?type=bonus').expect(400);
    expect(JSON.stringify(all.body)).not.toContain(String(someoneElse.id) + ',"type"');

    const usage = await client.get('/console/api/usage?days=7').expect(200);
    expect(usage.body.data).toHaveLength(7);
    expect(usage.body.quota).toBe(1200);
    const today = usage.body.data[6];
    expect(today).toEqual({
      date: new Date().toISOString().slice(0, 10),
      start: expect.any(Number),
      consumed: 0,
      refunded: 0,
      topped_up: 1250,
      adjusted: -50,
      spent: 0,
      tasks: 0,
      balance: 1200,
    });
    // Earlier days: nothing moved, and the closing balance before the opening top-up was 0.
    expect(
      usage.body.data.slice(0, 6).every((day: { topped_up: number; balance: number }) => day.topped_up === 0 && day.balance === 0),
    ).toBe(true);
    // Day boundaries follow the viewer's zone: 14 hours east moves "today" forward when UTC is past 10:00.
    const east = await client.get('/console/api/usage?days=2&tz_offset=840').expect(200);
    expect(east.body.data).toHaveLength(2);
    expect(east.body.data[1].date).toBe(new Date(Date.now() + 840 * 60_000).toISOString().slice(0, 10));
    expect(east.body.data[0].topped_up + east.body.data[1].topped_up).toBe(1250);
    await client.get('/console/api/usage?days=0').expect(400);
  });

  it('totals the admin logs over the same filter', async () => {
    const { id } = await customer(300);
    const logs = await gw.admin.get(`/api/admin/logs?user_id=${id}`).expect(200);
    expect(logs.body).toMatchObject({ total: 1, totals: { topup: 300, consume: 0, refund: 0, adjust: 0, count: 1 } });
  });

  it('signs a disabled customer out, and refuses their sign-in', async () => {
    const { id, username, client } = await customer(10);
    await gw.admin.patch(`/api/admin/users/${id}`, { status: 'disabled' }).expect(200);
    await client.get('/console/api/me').expect(401);
    const refused = await gw.http.post('/console/api/session').send({ username, password: 'correct-horse' }).expect(403);
    expect(refused.body.error.message).toBe('account is disabled');
  });

  it('signs a customer out of every session when an admin resets their password; the new password signs in', async () => {
    const { id, username, client } = await customer(10);
    // Sign-ins of their own address: the suite's others share the test client's allowance.
    const from = '198.51.100.11';
    const second = await signIn({ username, password: 'correct-horse' }, 200, from);
    await client.get('/console/api/me').expect(200);
    await gw.admin.patch(`/api/admin/users/${id}`, { password: 'new-password-1' }).expect(200);
    const stale = await client.get('/console/api/me').expect(401);
    expect(stale.headers['set-cookie'][0]).toMatch(/^gw_console_session=;/);
    await second.get('/console/api/me').expect(401);
    await signIn({ username, password: 'correct-horse' }, 401, from);
    const fresh = await signIn({ username, password: 'new-password-1' }, 200, from);
    await fresh.get('/console/api/me').expect(200);
    // Another change (no password) signs no one out.
    await gw.admin.patch(`/api/admin/users/${id}`, { rpm: 100 }).expect(200);
    await fresh.get('/console/api/me').expect(200);
  });

  it('keeps the session of an admin user who changes their own password, and ends their other sessions', async () => {
    const username = name('operator');
    const created = await gw.admin.post('/api/admin/users', { username, password: 'admin-password', role: 'admin' }).expect(201);
    const from = '198.51.100.12';
    const here = await signIn({ username, password: 'admin-password' }, 200, from);
    const elsewhere = await signIn({ username, password: 'admin-password' }, 200, from);
    await here.patch(`/api/admin/users/${created.body.id}`, { password: 'admin-password-2' }).expect(200);
    await here.get('/api/admin/channels').expect(200);
    await elsewhere.get('/api/admin/channels').expect(401);
    // An admin-token session resetting it ends every one of the user's sessions.
    const admin = await signIn({ admin_token: ADMIN_TOKEN }, 200, from);
    await admin.patch(`/api/admin/users/${created.body.id}`, { password: 'admin-password-3' }).expect(200);
    await here.get('/api/admin/channels').expect(401);
    await admin.get('/api/admin/channels').expect(200);
  });

  itOnSqliteOnly(kind)('signs out on the server: the old cookie stops working', async () => {
    const { client } = await customer();
    const out = await client.delete('/console/api/session').expect(204);
    expect(out.headers['set-cookie'][0]).toMatch(/^gw_console_session=;.*Expires=Thu, 01 Jan 1970/);
    const stale = await client.get('/console/api/me').expect(401);
    expect(stale.headers['set-cookie'][0]).toMatch(/^gw_console_session=;/);
    await client.get('/console/api/session').expect(401);
  });

  itOnSqliteOnly(kind)('lets visitors sign up as customers with a zero balance', async () => {
    const username = name('newbie');
    const res = await gw.http.post('/console/api/signup').send({ username, password: 'long-enough' }).expect(201);
    expect(res.body).toMatchObject({ role: 'user', user: { username, quota: 0, group: 'default' } });
    expect(res.headers['set-cookie'][0]).toMatch(/HttpOnly; SameSite=Strict/);
    const taken = await gw.http.post('/console/api/signup').send({ username, password: 'long-enough' }).expect(409);
    expect(taken.body.error.param).toBe('username');
    const short = await gw.http
      .post('/console/api/signup')
      .send({ username: name('x'), password: 'short' })
      .expect(400);
    expect(short.body.error.param).toBe('password');
  });

  it('lists the tasks filter and models for a customer, and 404s another account’s task', async () => {
    const { client } = await customer();
    await gw.createChannel({ name: name('ch'), platform: 'alpha', base_url: upstream.url, api_key: 'k', models: ['alpha/v6'] });
    await gw.createChannel({
      name: name('vip'),
      platform: 'alpha',
      base_url: upstream.url,
      api_key: 'k',
      models: ['alpha/c1'],
      groups: ['vip'],
    });
    const models = await client.get('/console/api/models').expect(200);
    expect(models.body.data).toContain('alpha/v6');
    expect(models.body.data).not.toContain('alpha/c1');
    const tasks = await client.get('/console/api/tasks?status=completed&model=alpha/v6').expect(200);
    expect(tasks.body).toEqual({ data: [], total: 0 });
    await client.get('/console/api/tasks?status=SUCCESS').expect(400);
    await client.get('/console/api/tasks/task_doesnotexist').expect(404);
  });

  itOnSqliteOnly(kind)('tests a channel’s connectivity and reports failure without counting it as traffic', async () => {
    const admin = await signIn({ admin_token: ADMIN_TOKEN });
    const dead = await gw.createChannel({
      name: name('dead'),
      platform: 'alpha',
      base_url: 'http://127.0.0.1:9',
      api_key: 'k',
      models: ['alpha/v6'],
    });
    const result = await admin.post(`/api/admin/channels/${dead}/test`).expect(200);
    expect(result.body).toMatchObject({
      ok: false,
      method: expect.stringMatching(/^(probe|reachability)$/),
      latency_ms: expect.any(Number),
      error: expect.any(String),
    });
    expect(JSON.stringify(result.body)).not.toContain('"k"');
    const view = await gw.admin.get(`/api/admin/channels/${dead}`).expect(200);
    expect(view.body).toMatchObject({ request_count: 0, error_count: 0 });
    await gw.admin.post('/api/admin/channels/999999/test').expect(404);
  });

  itOnSqliteOnly(kind)('documents the console API in Swagger, not the static files', async () => {
    const docs = await gw.http.get('/docs-json').expect(200);
    expect(Object.keys(docs.body.paths)).toEqual(
      expect.arrayContaining([
        '/console/api/session',
        '/console/api/keys',
        '/console/api/tasks',
        '/console/api/logs',
        '/console/api/usage',
        '/api/admin/channels/{id}/test',
      ]),
    );
    expect(Object.keys(docs.body.paths).some((path) => path.startsWith('/console/assets'))).toBe(false);
    expect(docs.body.components.schemas.CustomerLogListDto.properties.totals).toBeDefined();
  });

  // Moves the test clock 12 hours on: keep it after the tests that compare log times with the wall clock.
  itOnSqliteOnly(kind)('ends sessions after 12 hours', async () => {
    const { client } = await customer();
    await client.get('/console/api/me').expect(200);
    gw.clock.advance(12 * 60 * 60 * 1000 + 1000);
    await client.get('/console/api/me').expect(401);
    await client.get('/console/api/session').expect(401);
  });

  // Last: it uses up this gateway's sign-in allowance for the test client's address.
  itOnSqliteOnly(kind)('slows password guessing down with 429 after a burst of sign-in attempts', async () => {
    let status = 0;
    let attempts = 0;
    while (attempts < 30 && status !== 429) {
      attempts++;
      status = (await gw.http.post('/console/api/session').send({ username: 'guess', password: `guess-${attempts}` })).status;
      if (status !== 429) expect(status).toBe(401);
    }
    expect(status).toBe(429);
    expect(attempts).toBeLessThanOrEqual(31);
  });
});
