import { randomBytes } from 'node:crypto';
import { RedisConnection } from '../src/shared-state/redis-connection.service';
import { startGateway, TestGateway } from './support/gateway';
import { reachable, timeUntil } from './support/own-redis';
import { describeOnSqlite } from './support/test-databases';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'correct-horse';
/** What the account limit allows (src/console/account-sign-in-throttle.ts): 10 failures in 15 minutes. */
const FAILURES_ALLOWED = 10;

/**
 * The console sign-in throttle behind a trusted proxy (so X-Forwarded-For picks the client address):
 * failures per account name whatever the address, and per address, IPv6 counted by its /64. The
 * throttle is kept in memory or Redis, never in the database, so the suite runs on SQLite only.
 */
describeOnSqlite('sign-in throttle: per account and per address', (kind) => {
  const gateways: TestGateway[] = [];
  let gw: TestGateway;
  const start = async (env: Record<string, string> = {}, existing = gw?.database) => {
    const started = await startGateway(kind, { TRUSTED_PROXIES: 'loopback', ...env }, existing);
    gateways.push(started);
    return started;
  };
  beforeAll(async () => {
    gw = await start({}, undefined);
  });
  afterAll(async () => {
    for (const started of gateways) await started.close();
  });

  const account = async () => {
    const username = `acct_${randomBytes(4).toString('hex')}`;
    await gw.admin.post('/api/admin/users', { username, password: PASSWORD }).expect(201);
    return username;
  };
  const signIn = (on: TestGateway, address: string, username: string, password: string) =>
    on.http.post('/console/api/session').set('X-Forwarded-For', address).send({ username, password });

  it('refuses an account after its failures from many addresses, the right password too, and not other accounts', async () => {
    const victim = await account();
    const bystander = await account();
    for (let i = 0; i < FAILURES_ALLOWED; i++) await signIn(gw, `198.51.100.${i + 1}`, victim, `guess-${i}`).expect(401);
    const refused = await signIn(gw, '198.51.100.99', victim, 'guess-next').expect(429);
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      type: 'rate_limit_error',
      message: 'too many failed sign-ins for this account, retry later',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The right password, from an address never seen: refused until the window ends, no session cookie.
    const right = await signIn(gw, '192.0.2.77', victim, PASSWORD).expect(429);
    expect(right.headers['set-cookie']).toBeUndefined();
    // Another spelling of the same name is the same account.
    await signIn(gw, '192.0.2.78', victim.toUpperCase(), PASSWORD).expect(429);
    // Other accounts sign in as ever, from the very addresses the guesses came from.
    await signIn(gw, '198.51.100.1', bystander, PASSWORD).expect(200);
  });

  it('a correct sign-in does not count as a failure', async () => {
    const user = await account();
    for (let i = 0; i < FAILURES_ALLOWED + 2; i++) await signIn(gw, `203.0.113.${i + 1}`, user, PASSWORD).expect(200);
  });

  it('counts IPv6 addresses by their /64: addresses of one /64 share a budget, another /64 has its own', async () => {
    // A username per attempt, so that only the per-address limit (30 a minute) is at work.
    for (let i = 0; i < 30; i++) await signIn(gw, `2001:db8:1:2::${(i + 1).toString(16)}`, `nobody_${i}`, 'wrong-password').expect(401);
    const refused = await signIn(gw, '2001:db8:1:2:ffff:ffff:ffff:fffe', 'nobody_x', 'wrong-password').expect(429);
    expect(refused.body.error.message).toBe('too many sign-in attempts from this address, retry later');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await signIn(gw, '2001:db8:1:3::1', 'nobody_y', 'wrong-password').expect(401);
  });

  it('with REDIS_URL, an account refused on one instance is refused on another', async () => {
    if (!(await reachable(REDIS_URL))) {
      console.warn(`Redis at ${REDIS_URL} (TEST_REDIS_URL) is not reachable: the shared sign-in throttle test is SKIPPED.`);
      return;
    }
    const prefix = `gwtest-${randomBytes(6).toString('hex')}:`;
    const a = await start({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    const b = await start({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    // Both must count through Redis before the guesses start (on a busy machine connecting takes a moment).
    await timeUntil(async () => a.app.get(RedisConnection).isUp && b.app.get(RedisConnection).isUp, 10_000, 'both instances on Redis');
    const victim = await account();
    for (let i = 0; i < FAILURES_ALLOWED; i++) await signIn(i % 2 ? a : b, `198.51.100.${i + 101}`, victim, `guess-${i}`).expect(401);
    await signIn(a, '192.0.2.90', victim, PASSWORD).expect(429);
    await signIn(b, '192.0.2.91', victim, PASSWORD).expect(429);
  });
});
