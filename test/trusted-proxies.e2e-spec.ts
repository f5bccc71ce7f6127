import { startGateway, TestGateway } from './support/gateway';

/** The sign-in throttle's client address: the connection's, unless a configured proxy tells it. */
describe('TRUSTED_PROXIES and the sign-in throttle (one instance, SQLite)', () => {
  const gateways: TestGateway[] = [];
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
  });
  const start = async (env: Record<string, string> = {}) => {
    const gw = await startGateway('sqlite', env);
    gateways.push(gw);
    return gw;
  };
  // A name per attempt, so that only the per-address limit is at work (an account has a limit of its own).
  let attempt = 0;
  const signIn = (gw: TestGateway, forwardedFor?: string) => {
    const req = gw.http.post('/console/api/session');
    if (forwardedFor) req.set('X-Forwarded-For', forwardedFor);
    return req.send({ username: `guess-${attempt++}`, password: 'wrong-password' });
  };
  /** Spends an address's 30 attempts a minute; each is a plain 401 until then. */
  const exhaust = async (gw: TestGateway, forwardedFor: (i: number) => string | undefined) => {
    for (let i = 0; i < 30; i++) await signIn(gw, forwardedFor(i)).expect(401);
  };

  it('by default believes no X-Forwarded-For: rotating it from one address does not get past the throttle', async () => {
    const gw = await start();
    await exhaust(gw, (i) => `198.51.100.${i + 1}`);
    const refused = await signIn(gw, '198.51.100.200').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
    await signIn(gw).expect(429);
  });

  it('believes only the configured proxies: loopback is not one of 10.0.0.0/8', async () => {
    const gw = await start({ TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.7' });
    await exhaust(gw, (i) => `203.0.113.${i + 1}`);
    await signIn(gw, '203.0.113.250').expect(429);
  });

  it('behind a trusted proxy counts each client address the proxy reports, and a client cannot prepend its own', async () => {
    const gw = await start({ TRUSTED_PROXIES: '127.0.0.1' });
    await exhaust(gw, () => '203.0.113.10');
    await signIn(gw, '203.0.113.10').expect(429);
    // What the client wrote before the proxy's entry is not believed: the address is the proxy's entry.
    await signIn(gw, '192.0.2.1, 203.0.113.10').expect(429);
    // Another client behind the same proxy has its own allowance.
    await signIn(gw, '203.0.113.11').expect(401);
  });
});
