import { performance } from 'node:perf_hooks';
import { GatewayBehindProxy, startGatewayBehindProxy } from './support/database-outage';
import { TestGateway } from './support/gateway';
import { TcpProxy } from './support/tcp-proxy';
import { describeOnMysql } from './support/test-databases';

const QUERY_TIMEOUT_MS = 2000;
/** Fewer connections than concurrent requests: most of them first wait for a connection a hung query holds. */
const POOL_SIZE = 2;
const CONCURRENT_REQUESTS = 6;

/**
 * With MariaDB frozen, a request's wait for a pool connection and its query share one deadline
 * (DATABASE_QUERY_TIMEOUT_MS): every request gets its 503 within about one timeout, not after the
 * requests ahead of it in the pool's queue timed out one after the other.
 */
describeOnMysql('[mysql] a frozen database answers every request within about one query timeout', () => {
  let behind: GatewayBehindProxy;
  let proxy: TcpProxy;
  let gateway: TestGateway;
  let customer: { userId: number; key: string };
  let taskId: string;

  const read = async () => {
    const started = performance.now();
    const res = await fetch(`${gateway.url}/v1/videos/${taskId}`, { headers: { Authorization: `Bearer ${customer.key}` } });
    await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), tookMs: performance.now() - started };
  };

  beforeAll(async () => {
    behind = await startGatewayBehindProxy('mysql', {
      DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
    });
    ({ proxy, gateway } = behind);
    customer = await gateway.createCustomer({ quota: 1_000_000 });
    const submitted = await fetch(`${gateway.url}/v1/videos`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${customer.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'alpha/v5', prompt: 'before the freeze' }),
    });
    taskId = ((await submitted.json()) as { id: string }).id;
    expect((await read()).status).toBe(200);
  });

  afterAll(async () => {
    await behind?.close();
  });

  it('gives every request its 503 with Retry-After before twice DATABASE_QUERY_TIMEOUT_MS', async () => {
    proxy.freeze();
    const answers = await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, () => read()));
    proxy.thaw();
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
    // Loose on purpose (a busy machine): one timeout plus slack, where a queued wait made it two or three.
    expect(Math.max(...answers.map((answer) => answer.tookMs))).toBeLessThan(2 * QUERY_TIMEOUT_MS);
    expect((await read()).status).toBe(200);
  });
});
