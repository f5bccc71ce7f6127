import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** /metrics: open without METRICS_TOKEN (as before), behind `Authorization: Bearer <METRICS_TOKEN>` with it. */
describeOnSqlite('METRICS_TOKEN', (kind) => {
  let open: TestGateway;
  let guarded: TestGateway;
  beforeAll(async () => {
    open = await startGateway(kind);
    guarded = await startGateway(kind, { METRICS_TOKEN }, open.database);
  });
  afterAll(async () => {
    await guarded?.close();
    await open?.close();
  });

  it('unset: /metrics answers anyone', async () => {
    const res = await open.http.get('/metrics').expect(200);
    expect(res.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('set: /metrics answers only the token, a 401 without it or with another', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Bearer ${METRICS_TOKEN}x`,
      'Bearer test-admin-token-0123456789abcdef',
      METRICS_TOKEN,
    ]) {
      const req = guarded.http.get('/metrics');
      if (authorization) req.set('Authorization', authorization);
      const res = await req.expect(401);
      expect(res.text).not.toContain('process_resident_memory_bytes');
      expect(res.body.error).toMatchObject({
        code: 'unauthorized',
        message: 'missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>',
      });
    }
    const res = await guarded.http.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(res.text).toMatch(/^process_resident_memory_bytes \d+/m);
    // The rest of the gateway is unchanged.
    await guarded.http.get('/health').expect(200);
  });
});
