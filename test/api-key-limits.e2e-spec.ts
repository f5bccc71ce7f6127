import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { timeUntil } from './support/own-redis';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';
import { until } from './support/until';

const DAY_MS = 86_400_000;

/** An API key's own limits: quota, budget per period, expiry, allowed addresses, rpm; refused before anything is charged. */
describeEachDatabase('API key limits', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  let fakeBeta: BetaEmulatorServer;
  let price: number;
  let counter = 0;

  const video = { model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' };
  const submit = (key: string, headers: Record<string, string> = {}) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).set(headers).send(video);
  const quote = (key: string) => gw.http.post('/v1/videos/quote').set('Authorization', `Bearer ${key}`).send(video);
  const submitWrapped = (key: string) =>
    gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'beta-1.0-t2v', prompt: 'a paper boat', size: '720P', duration: 5 });

  /** A user with plenty of quota and a key with `limits`. */
  async function keyWith(limits: Record<string, unknown>, quota = 10_000_000) {
    const user = await gw.admin.post('/api/admin/users', { username: `kl_${kind}_${++counter}`, quota }).expect(201);
    const issued = await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'limited', ...limits }).expect(201);
    return { userId: user.body.id as number, key: issued.body.key as string, keyId: issued.body.id as number, issued: issued.body };
  }
  const keyView = async (userId: number, keyId: number) =>
    (await gw.admin.get(`/api/admin/users/${userId}/keys`).expect(200)).body.data.find((k: { id: number }) => k.id === keyId);
  const taskCount = async (userId: number) => (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body.total as number;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    // Loopback is a trusted proxy here, so a test can send the client address in X-Forwarded-For.
    gw = await startGateway(kind, { TRUSTED_PROXIES: 'loopback' });
    await gw.createChannel(alphaChannelBody(fake));
    fakeBeta = await startBetaEmulator();
    await gw.createChannel(betaChannelBody(fakeBeta));
    const probe = await keyWith({});
    await submit(probe.key).expect(200);
    price = (await gw.balance(probe.userId)).used_quota;
    expect(price).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await fakeBeta?.close();
  });

  it('takes every limit at creation, lists them with their use, changes and lifts them by PATCH', async () => {
    const now = Math.floor(gw.clock.now() / 1000);
    const { userId, keyId, issued } = await keyWith({
      quota_limit: 50_000,
      budget: 10_000,
      budget_period: '1d',
      expires_at: now + 3600,
      allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '127.0.0.1'],
      rpm: 30,
    });
    expect(issued).toMatchObject({
      quota_limit: 50_000,
      used_quota: 0,
      budget: 10_000,
      budget_period: '1d',
      budget_used: 0,
      expires_at: now + 3600,
      allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '127.0.0.1'],
      rpm: 30,
      last_used_at: null,
    });
    expect(issued.budget_resets_at).toBeGreaterThanOrEqual(now + 86_399);
    expect(issued.budget_resets_at).toBeLessThanOrEqual(now + 86_401);
    expect(issued.key).toMatch(/^sk-/);

    const changed = await gw.admin
      .patch(`/api/admin/users/${userId}/keys/${keyId}`, { budget: 20_000, rpm: 0, expires_at: null })
      .expect(200);
    expect(changed.body).toMatchObject({ budget: 20_000, budget_period: '1d', rpm: 0, expires_at: null, quota_limit: 50_000 });
    const lifted = await gw.admin
      .patch(`/api/admin/users/${userId}/keys/${keyId}`, { quota_limit: null, budget: null, allowed_ips: null, name: 'renamed' })
      .expect(200);
    expect(lifted.body).toMatchObject({
      name: 'renamed',
      quota_limit: null,
      budget: null,
      budget_period: null,
      budget_used: null,
      allowed_ips: null,
    });
    expect(await keyView(userId, keyId)).toMatchObject({ name: 'renamed', quota_limit: null, budget: null });

    // Another user's key is not found through this user.
    const other = await keyWith({});
    await gw.admin.patch(`/api/admin/users/${other.userId}/keys/${keyId}`, { rpm: 1 }).expect(404);
  });

  it.each([
    [{ allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips'],
    [{ allowed_ips: ['example.com'] }, 'allowed_ips'],
    [{ budget: 100, budget_period: '2d' }, 'budget_period'],
    [{ budget_period: '7d' }, 'budget'],
    [{ quota_limit: -1 }, 'quota_limit'],
    [{ expires_at: 'tomorrow' }, 'expires_at'],
    [{ rpm: 1.5 }, 'rpm'],
  ])('refuses %j with a 400 naming %s', async (limits, param) => {
    const user = await gw.admin.post('/api/admin/users', { username: `kl_bad_${kind}_${++counter}` }).expect(201);
    const refused = await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'bad', ...limits }).expect(400);
    expect(refused.body.error.param).toBe(param);
  });

  it('refuses a submit past quota_limit with 402 key_quota_exceeded in both shapes, charging and sending nothing', async () => {
    const { userId, key, keyId } = await keyWith({ quota_limit: 2 * price });
    await submit(key).expect(200);
    // The quote reads the key's spending fresh (one statement with the balance): the limit has room for one more.
    expect((await quote(key).expect(200)).body.quota).toBe(price);
    await submit(key).expect(200);
    const quoted = await quote(key).expect(402);
    expect(quoted.body.error).toMatchObject({ code: 'key_quota_exceeded', type: 'insufficient_quota' });
    expect(quoted.body.error.message).toContain(`0 are left and this request costs ${price}`);
    const before = await gw.balance(userId);
    const generates = fake.calls('generate').length;

    const refused = await submit(key).expect(402);
    expect(refused.body.error).toMatchObject({ code: 'key_quota_exceeded', type: 'insufficient_quota' });
    const wrapped = await submitWrapped(key).expect(402);
    expect(wrapped.body).toMatchObject({ code: 'key_quota_exceeded', data: null });

    expect(await gw.balance(userId)).toEqual(before);
    expect(before.used_quota).toBe(2 * price);
    expect(fake.calls('generate')).toHaveLength(generates);
    expect(await taskCount(userId)).toBe(2);
    expect(await keyView(userId, keyId)).toMatchObject({ quota_limit: 2 * price, used_quota: 2 * price });
  });

  it('refuses past the budget with 402 key_budget_exceeded, and takes requests again once the period is over', async () => {
    const { userId, key, keyId } = await keyWith({ budget: price, budget_period: '1d' });
    await submit(key).expect(200);
    const spent = await keyView(userId, keyId);
    expect(spent).toMatchObject({ budget_used: price, used_quota: price });
    const before = await gw.balance(userId);

    const refused = await submit(key).expect(402);
    expect(refused.body.error.code).toBe('key_budget_exceeded');
    expect((await quote(key).expect(402)).body.error.code).toBe('key_budget_exceeded');
    expect(await gw.balance(userId)).toEqual(before);

    gw.clock.advance(DAY_MS + 1000);
    // The period is over: the quote, like the submit, finds the budget whole again.
    expect((await quote(key).expect(200)).body.quota).toBe(price);
    const renewed = await keyView(userId, keyId);
    expect(renewed.budget_used).toBe(0);
    expect(renewed.budget_resets_at).toBe(spent.budget_resets_at + DAY_MS / 1000);
    await submit(key).expect(200);
    expect(await keyView(userId, keyId)).toMatchObject({ budget_used: price, used_quota: 2 * price });
    expect((await gw.balance(userId)).used_quota).toBe(2 * price);
  });

  it('gives a failed task’s charge back to the key (used_quota and budget_used), once', async () => {
    const { userId, key, keyId } = await keyWith({ quota_limit: price, budget: price, budget_period: '7d' });
    fake.scriptNext([5, 8]);
    const { body } = await submit(key).expect(200);
    expect(await keyView(userId, keyId)).toMatchObject({ used_quota: price, budget_used: price });
    await submit(key).expect(402);
    for (
      let i = 0;
      i < 4 && (await gw.http.get(`/v1/videos/${body.id}`).set('Authorization', `Bearer ${key}`)).body.status !== 'failed';
      i++
    ) {
      gw.clock.advance(20_000);
      await gw.sync();
    }
    expect((await gw.http.get(`/v1/videos/${body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.status).toBe('failed');
    expect(await keyView(userId, keyId)).toMatchObject({ used_quota: 0, budget_used: 0 });
    expect((await gw.balance(userId)).used_quota).toBe(0);
    // The key may spend it again.
    await submit(key).expect(200);
    expect(await keyView(userId, keyId)).toMatchObject({ used_quota: price, budget_used: price });
  });

  it('never lets concurrent submits take a key past its limit', async () => {
    const { userId, key, keyId } = await keyWith({ quota_limit: 3 * price, budget: 10 * price, budget_period: '1d' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => submit(key)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 402, 402, 402, 402, 402]);
    for (const answer of answers.filter((a) => a.status === 402)) expect(answer.body.error.code).toBe('key_quota_exceeded');
    expect(await keyView(userId, keyId)).toMatchObject({ used_quota: 3 * price, budget_used: 3 * price });
    expect((await gw.balance(userId)).used_quota).toBe(3 * price);
    expect(await taskCount(userId)).toBe(3);
  });

  it('refuses an expired key with 401 key_expired at once, though it is cached', async () => {
    const { key, userId, keyId } = await keyWith({ expires_at: Math.floor(gw.clock.now() / 1000) + 120 });
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    expect(await keyView(userId, keyId)).toMatchObject({ status: 'active' });
    gw.clock.advance(121_000);
    // Listed as what it is: expired, not active.
    expect(await keyView(userId, keyId)).toMatchObject({ status: 'expired' });
    const refused = await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(401);
    expect(refused.body.error).toMatchObject({ code: 'key_expired', type: 'authentication_error' });
    expect((await submitWrapped(key).expect(401)).body.code).toBe('key_expired');
  });

  itOnSqliteOnly(kind)(
    'takes requests only from the allowed addresses (IPv4, IPv6, CIDRs), seen through TRUSTED_PROXIES; 403 names the address',
    async () => {
      const { userId, key, keyId } = await keyWith({ allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] });
      const from = (address: string) => gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).set('X-Forwarded-For', address);
      await from('203.0.113.77').expect(200);
      await from('2001:db8::5').expect(200);
      const refused = await from('198.51.100.7').expect(403);
      expect(refused.body.error).toMatchObject({ code: 'ip_not_allowed', type: 'permission_error' });
      expect(refused.body.error.message).toContain('198.51.100.7');
      const before = await gw.balance(userId);
      expect((await submit(key, { 'X-Forwarded-For': '198.51.100.7' }).expect(403)).body.error.code).toBe('ip_not_allowed');
      expect(await gw.balance(userId)).toEqual(before);
      // The connection's own address when no proxy names one.
      await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(403);
      await gw.admin.patch(`/api/admin/users/${userId}/keys/${keyId}`, { allowed_ips: ['127.0.0.0/8'] }).expect(200);
      await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    },
  );

  itOnSqliteOnly(kind)('limits a key to its rpm with 429 key_rate_limited and Retry-After; the account’s other keys go on', async () => {
    const { userId, key } = await keyWith({ rpm: 2 });
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    const before = await gw.balance(userId);
    const refused = await submit(key).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toEqual({
      message: 'rate limit reached: this api key may send 2 requests per minute',
      type: 'rate_limit_error',
      param: null,
      code: 'key_rate_limited',
    });
    expect(await gw.balance(userId)).toEqual(before);
    const other = await gw.admin.post(`/api/admin/users/${userId}/keys`, { name: 'other' }).expect(201);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${other.body.key}`).expect(200);
  });

  it('shows when a key was last used', async () => {
    const { userId, key, keyId } = await keyWith({});
    expect((await keyView(userId, keyId)).last_used_at).toBeNull();
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    const seen = await until("the key's last use", async () => (await keyView(userId, keyId)).last_used_at as number | null, {
      timeoutMs: 5_000,
      everyMs: 0,
    });
    expect(seen).toBeGreaterThanOrEqual(Math.floor(gw.clock.now() / 1000) - 5);
  });

  it('shows each refusal in the logs with its reason (type refused, nothing moved), to the admin and to the customer', async () => {
    const username = `kl_logs_${kind}_${++counter}`;
    const user = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota: 10_000_000 }).expect(201);
    const issued = await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'capped', budget: price, rpm: 3 }).expect(201);
    const key = issued.body.key as string;
    await submit(key).expect(200);
    await submit(key).expect(402);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(429);
    const refusedLogs = async () =>
      (await gw.admin.get(`/api/admin/logs?user_id=${user.body.id}&type=refused`).expect(200)).body.data as Array<Record<string, unknown>>;
    await timeUntil(async () => (await refusedLogs()).length === 2, 5_000, 'both refusals logged');
    const details = (await refusedLogs()).map((log) => log.detail as string).sort();
    expect(details[0]).toMatch(/^key_budget_exceeded: api key budget exceeded/);
    expect(details[1]).toMatch(/^key_rate_limited: rate limit reached/);
    for (const log of await refusedLogs()) expect(log).toMatchObject({ type: 'refused', quota: 0 });

    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
    const customerLogs = await gw.http.get('/console/api/logs?type=refused').set('Cookie', cookie).expect(200);
    expect(customerLogs.body.data).toHaveLength(2);
  });

  it('lets a customer set, change and lift their own keys’ limits in the console API, never another’s', async () => {
    const username = `kl_console_${kind}_${++counter}`;
    const user = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota: 1_000_000 }).expect(201);
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
    const csrf = session.body.csrf_token as string;
    const send = (method: 'post' | 'patch', path: string, body: object) =>
      gw.http[method](path).set('Cookie', cookie).set('X-CSRF-Token', csrf).send(body);

    const created = await send('post', '/console/api/keys', {
      name: 'app',
      budget: 10_000,
      budget_period: '1d',
      allowed_ips: ['10.1.0.0/16'],
    }).expect(201);
    expect(created.body).toMatchObject({ name: 'app', budget: 10_000, budget_period: '1d', budget_used: 0, allowed_ips: ['10.1.0.0/16'] });
    expect(created.body.key).toMatch(/^sk-/);
    const changed = await send('patch', `/console/api/keys/${created.body.id}`, { quota_limit: 5_000, allowed_ips: null, rpm: 10 }).expect(
      200,
    );
    expect(changed.body).toMatchObject({ quota_limit: 5_000, allowed_ips: null, rpm: 10, budget: 10_000 });
    const listed = await gw.http.get('/console/api/keys').set('Cookie', cookie).expect(200);
    expect(listed.body.data.find((k: { id: number }) => k.id === created.body.id)).toMatchObject({ quota_limit: 5_000, used_quota: 0 });
    expect((await send('patch', `/console/api/keys/${created.body.id}`, { budget_period: '1y' }).expect(400)).body.error.param).toBe(
      'budget_period',
    );

    const other = await keyWith({});
    await send('patch', `/console/api/keys/${other.keyId}`, { rpm: 1 }).expect(404);
    expect(user.body.id).not.toBe(other.userId);
  });

  itOnSqliteOnly(kind)('documents each refusal code in Swagger, in both surfaces’ shapes', async () => {
    const docs = (await gw.http.get('/docs-json').expect(200)).body;
    const codes = (path: string, status: string) => {
      const examples = docs.paths[path].post.responses[status].content['application/json'].examples as Record<string, { value: any }>;
      return Object.values(examples).map(({ value }) => value.error?.code ?? value.code);
    };
    expect(codes('/v1/videos', '401')).toEqual(['unauthorized', 'key_expired']);
    expect(codes('/v1/videos', '402')).toEqual(['insufficient_quota', 'key_quota_exceeded', 'key_budget_exceeded']);
    expect(codes('/v1/videos', '403')).toEqual(['forbidden', 'ip_not_allowed']);
    expect(codes('/v1/videos', '429')).toEqual(['rate_limited', 'key_rate_limited']);
    expect(codes('/v1/video/generations', '402')).toEqual(['insufficient_quota', 'key_quota_exceeded', 'key_budget_exceeded']);
    const keyLimits = docs.paths['/api/admin/users/{id}/keys/{key_id}'].patch;
    expect(keyLimits).toBeDefined();
    const body = docs.components.schemas.UpdateKeyDto.properties;
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(['quota_limit', 'budget', 'budget_period', 'expires_at', 'allowed_ips', 'rpm']),
    );
  });
});
