import { randomBytes } from 'node:crypto';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { RedisConnection } from '../src/shared-state/redis-connection.service';
import { startGateway, TestGateway } from './support/gateway';
import { reachable, timeUntil } from './support/own-redis';
import { describeEachDatabase, FreshDatabase, freshDatabase } from './support/test-databases';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two gateways on one database and one Redis (a key prefix of their own): a key's expiry, rpm and
 * quota hold across both, whichever instance cached the key.
 */
describeEachDatabase('API key limits on two instances', (kind) => {
  let database: FreshDatabase;
  let fake: AlphaEmulatorServer;
  let a: TestGateway;
  let b: TestGateway;
  let redisAvailable = false;
  let counter = 0;

  /** Both instances share limits only while each sees Redis up (on a busy machine a heartbeat may miss). */
  const bothOnRedis = () =>
    timeUntil(async () => a.app.get(RedisConnection).isUp && b.app.get(RedisConnection).isUp, 10_000, 'both instances on Redis');

  /** How many connections listen for key invalidations, as Redis counts them. */
  const listeners = async () => {
    const redis = a.app.get(RedisConnection);
    const [, count] = (await redis.client!.call('PUBSUB', 'NUMSUB', `${redis.keyPrefix}api-key-invalidations`)) as [string, number];
    return count;
  };

  const video = { model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' };
  const list = (gw: TestGateway, key: string) => gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`);
  const submit = (gw: TestGateway, key: string) => gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(video);

  async function keyWith(limits: Record<string, unknown>) {
    const user = await a.admin.post('/api/admin/users', { username: `kli_${kind}_${++counter}`, quota: 10_000_000 }).expect(201);
    const issued = await a.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'shared', ...limits }).expect(201);
    return { userId: user.body.id as number, key: issued.body.key as string, keyId: issued.body.id as number };
  }

  beforeAll(async () => {
    redisAvailable = await reachable(REDIS_URL);
    if (!redisAvailable) {
      console.warn(`Redis at ${REDIS_URL} (TEST_REDIS_URL) is not reachable: the two-instance key suite is SKIPPED.`);
      return;
    }
    database = await freshDatabase(kind);
    fake = await startAlphaEmulator();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `gwtest-${randomBytes(6).toString('hex')}:` };
    a = await startGateway(kind, env, database);
    b = await startGateway(kind, env, database);
    await a.createChannel(alphaChannelBody(fake));
    await bothOnRedis();
  });

  it('has both instances listening for key invalidations, however their connections came up', async () => {
    if (!redisAvailable) return;
    await timeUntil(async () => (await listeners()) === 2, 10_000, 'both instances subscribed');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fake?.close();
    await database?.drop();
  });

  it('refuses an expired key on both instances at once, though both have it cached', async () => {
    if (!redisAvailable) return;
    const { key } = await keyWith({ expires_at: Math.floor(Date.now() / 1000) + 120 });
    await list(a, key).expect(200);
    await list(b, key).expect(200);
    a.clock.advance(121_000);
    b.clock.advance(121_000);
    expect((await list(a, key).expect(401)).body.error.code).toBe('key_expired');
    expect((await list(b, key).expect(401)).body.error.code).toBe('key_expired');
  });

  it('applies an expiry set on one instance on the other as soon as Redis tells it', async () => {
    if (!redisAvailable) return;
    const { userId, keyId, key } = await keyWith({});
    await list(b, key).expect(200);
    await bothOnRedis();
    await a.admin.patch(`/api/admin/users/${userId}/keys/${keyId}`, { expires_at: Math.floor(a.clock.now() / 1000) - 1 }).expect(200);
    await timeUntil(async () => (await list(b, key)).status === 401, 5_000, 'instance B refuses the expired key');
    expect((await list(b, key)).body.error.code).toBe('key_expired');
  });

  it('counts a key’s rpm over both instances through Redis', async () => {
    if (!redisAvailable) return;
    const { key } = await keyWith({ rpm: 3 });
    await bothOnRedis();
    await list(a, key).expect(200);
    await list(b, key).expect(200);
    await list(a, key).expect(200);
    const refused = await list(b, key).expect(429);
    expect(refused.body.error.code).toBe('key_rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await list(a, key).expect(429)).body.error.code).toBe('key_rate_limited');
  });

  it('never takes a key past its quota with submits on both instances at once', async () => {
    if (!redisAvailable) return;
    const probe = await keyWith({});
    await submit(a, probe.key).expect(200);
    const price = (await a.balance(probe.userId)).used_quota;
    const { userId, keyId, key } = await keyWith({ quota_limit: 2 * price });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(i % 2 ? a : b, key)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 402, 402, 402, 402]);
    const listed = (await b.admin.get(`/api/admin/users/${userId}/keys`).expect(200)).body.data[0];
    expect(listed).toMatchObject({ id: keyId, used_quota: 2 * price });
    expect((await b.balance(userId)).used_quota).toBe(2 * price);
  });
});
