import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

/** One instance without REDIS_URL: the account rate limit (`rpm`) counts in process, with the same rules. */
describeOnSqlite('account rate limit (rpm), one instance', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(alphaChannelBody(fake));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const submit = (key: string) =>
    gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' });

  it('is 0 (unlimited) by default, settable at creation and by PATCH, and refuses anything but a non-negative integer', async () => {
    const plain = await gw.admin.post('/api/admin/users', { username: `rpm-default-${kind}` }).expect(201);
    expect((await gw.admin.get(`/api/admin/users/${plain.body.id}`).expect(200)).body.rpm).toBe(0);
    const limited = await gw.admin.post('/api/admin/users', { username: `rpm-set-${kind}`, rpm: 120 }).expect(201);
    expect((await gw.admin.get(`/api/admin/users/${limited.body.id}`).expect(200)).body.rpm).toBe(120);
    expect((await gw.admin.patch(`/api/admin/users/${limited.body.id}`, { rpm: 7 }).expect(200)).body.rpm).toBe(7);
    for (const rpm of [-1, 1.5, '10', null]) {
      const refused = await gw.admin.patch(`/api/admin/users/${limited.body.id}`, { rpm }).expect(400);
      expect(refused.body.error.param).toBe('rpm');
    }
    const refusedCreate = await gw.admin.post('/api/admin/users', { username: `rpm-bad-${kind}`, rpm: -5 }).expect(400);
    expect(refusedCreate.body.error.param).toBe('rpm');
    expect((await gw.admin.get(`/api/admin/users/${limited.body.id}`).expect(200)).body.rpm).toBe(7);
  });

  it('past the limit answers 429 with Retry-After in the OpenAI shape on /v1/videos, and charges nothing', async () => {
    const { userId, key } = await gw.createCustomer({ quota: 1_000_000 });
    await gw.admin.patch(`/api/admin/users/${userId}`, { rpm: 3 }).expect(200);
    const first = await submit(key).expect(200);
    await gw.http.get(`/v1/videos/${first.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
    await submit(key).expect(200);
    const afterTwo = await gw.balance(userId);
    const tasksBefore = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body.total;
    const generatesBefore = fake.calls('generate').length;

    const refused = await submit(key).expect(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      error: {
        message: 'rate limit reached: this account may send 3 requests per minute',
        type: 'rate_limit_error',
        param: null,
        code: 'rate_limited',
      },
    });
    // Reads count too, and a refused request is never charged or recorded.
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(429);
    expect(await gw.balance(userId)).toEqual(afterTwo);
    expect((await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body.total).toBe(tasksBefore);
    expect(tasksBefore).toBe(2);
    expect(fake.calls('generate')).toHaveLength(generatesBefore);
  });

  it('answers in the unified shape on /v1/video/generations, and refuses before reading the body', async () => {
    const { userId, key } = await gw.createCustomer({ quota: 1_000_000 });
    await gw.admin.patch(`/api/admin/users/${userId}`, { rpm: 1 }).expect(200);
    await gw.http.get('/v1/video/generations/unknown').set('Authorization', `Bearer ${key}`).expect(404);
    // Not JSON at all: a request past the limit is refused before its body is parsed.
    const refused = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send('{not json')
      .expect(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body).toEqual({
      code: 'rate_limited',
      message: 'rate limit reached: this account may send 1 requests per minute',
      data: null,
    });
    // Other accounts are not affected.
    const other = await gw.createCustomer();
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${other.key}`).expect(200);
  });

  it('applies a changed limit at once: 0 lifts it', async () => {
    const { userId, key } = await gw.createCustomer();
    await gw.admin.patch(`/api/admin/users/${userId}`, { rpm: 2 }).expect(200);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
    await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(429);
    await gw.admin.patch(`/api/admin/users/${userId}`, { rpm: 0 }).expect(200);
    for (let i = 0; i < 5; i++) await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200);
  });
});
