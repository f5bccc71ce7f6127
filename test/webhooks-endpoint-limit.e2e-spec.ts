import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { databaseKinds, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

async function call(
  gateway: GatewayProcess,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The 20-endpoint limit is kept by the database: it holds with two instances creating at once. */
describe('webhook endpoints per account across two instances', () => {
  const started: GatewayProcess[] = [];
  const databases: FreshDatabase[] = [];

  afterEach(async () => {
    for (const gateway of started.splice(0)) await gateway.stop();
    for (const database of databases.splice(0)) await database.drop();
  });

  for (const kind of databaseKinds()) {
    it(`[${kind}] 200 concurrent creates split over two instances leave exactly 20 endpoints; the others get a 400 naming the limit`, async () => {
      const database = await freshDatabase(kind);
      databases.push(database);
      const env = { DATABASE_URL: database.url, ADMIN_TOKEN, MEDIA_ALLOW_PRIVATE_HOSTS: 'true', WEBHOOK_DELIVERY_INTERVAL_MS: '0' };
      // One after the other: both run the migrations on the same database.
      const first = await startGatewayProcess(env);
      started.push(first);
      const second = await startGatewayProcess(env);
      started.push(second);
      const user = (await call(first, ADMIN_TOKEN, 'POST', '/api/admin/users', { username: 'many_hooks', quota: 0 })).body;
      const { key } = (await call(first, ADMIN_TOKEN, 'POST', `/api/admin/users/${user.id}/keys`, { name: 'k' })).body;

      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          call(index % 2 ? second : first, key, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:9/hook-${index}` }),
        ),
      );
      const created = answers.filter((res) => res.status === 201);
      const refused = answers.filter((res) => res.status !== 201);
      expect(created).toHaveLength(20);
      expect(refused).toHaveLength(180);
      for (const res of refused) {
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({
          type: 'invalid_request_error',
          message: 'an account may have at most 20 webhook endpoints',
        });
      }
      const rows = await queryDatabase<{ n: number | string }>(
        database,
        `SELECT COUNT(*) AS n FROM webhook_endpoints WHERE user_id = ${Number(user.id)}`,
      );
      expect(Number(rows[0].n)).toBe(20);
      expect((await call(second, key, 'GET', '/v1/webhooks')).body.data.map((row: any) => row.id).sort()).toEqual(
        created.map((res) => res.body.id).sort(),
      );
    }, 120_000);
  }
});
