import type { ServerResponse } from 'node:http';
import { FAMILIES } from '../src/families/family-registry';
import type { FamilyDefinition, SubmitForm } from '../src/families/family';
import { SIMULATOR_API_KEY } from '../src/families/simulator-shared/simulator-credentials';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, RecordedRequest, startLoopbackServer } from './support/http-server';
import { attemptsOf } from './support/task-trail';
import { queryDatabase } from './support/test-databases';

/**
 * Every family's create call, against a provider whose answer is lost or unusable after the request
 * went out: the provider may have the task, so the client gets a 503, nothing is charged and the
 * second channel receives nothing (the operator never pays two providers for one task). A 500 (the
 * provider's own "no") is the contrast: that submit does move on to the second channel.
 */
const QUOTA = 10_000_000;
/** The submit's deadline is half the lease: a hung create times out after 2 s. */
const LEASE_MS = 4000;

type Fault = 'reset' | 'timeout' | 'unreadable 2xx' | '2xx without an id' | '504';
const FAULTS: readonly Fault[] = ['reset', 'timeout', 'unreadable 2xx', '2xx without an id', '504'];

/** The provider misbehaving as `fault` says, once the whole request has arrived. */
function misbehave(fault: Fault | '500', req: RecordedRequest, res: ServerResponse): void {
  switch (fault) {
    case 'reset':
      res.socket?.destroy();
      return;
    case 'timeout':
      return; // never answered
    case 'unreadable 2xx':
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>ok</html>');
      return;
    case '2xx without an id':
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      return;
    case '504':
      res.writeHead(504, { 'Content-Type': 'text/html' }).end('<html>gateway timeout</html>');
      return;
    case '500':
      res.writeHead(500, { 'Content-Type': 'application/json' }).end('{}');
  }
}

/** A family's first request example (the form it documents first), as the simulator accepts it. */
function exampleOf(family: FamilyDefinition): { form: SubmitForm; body: Record<string, unknown> } {
  const form: SubmitForm = family.request.examples.flat ? 'flat' : 'unified';
  const first = Object.values(family.request.examples[form] ?? {})[0];
  if (!first) throw new Error(`family ${family.platform} documents no example`);
  return { form, body: first.value };
}

describe('[sqlite] a create whose answer may have reached the provider is never sent to a second channel', () => {
  let gw: TestGateway;
  let first: LoopbackServer;
  let second: LoopbackServer;
  let fault: Fault | '500' = 'reset';
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    first = await startLoopbackServer((req, res) => misbehave(fault, req, res));
    // Anything reaching the second channel is refused: the test counts what arrives.
    second = await startLoopbackServer((_req, res) => void res.writeHead(500, { 'Content-Type': 'application/json' }).end('{}'));
    gw = await startGateway('sqlite', { TASK_LEASE_MS: String(LEASE_MS), CHANNEL_BREAKER_FAILURES: '1000' });
    for (const family of FAMILIES) {
      const { body } = exampleOf(family);
      const channel = (name: string, server: LoopbackServer, priority: number) => ({
        name: `${family.platform}-${name}`,
        platform: family.platform,
        base_url: `${server.url}/${family.platform}`,
        api_key: family.simulator?.apiKey ?? SIMULATOR_API_KEY,
        models: [body.model],
        priority,
        settings: family.simulator?.channelSettings?.(server.url) ?? {},
      });
      await gw.createChannel(channel('first', first, 10));
      await gw.createChannel(channel('second', second, 0));
    }
    customer = await gw.createCustomer({ quota: QUOTA });
  });

  afterAll(async () => {
    await gw?.close();
    await first?.close();
    await second?.close();
  });

  const submit = (family: FamilyDefinition) => {
    const { form, body } = exampleOf(family);
    return gw.http
      .post(form === 'flat' ? '/v1/videos' : '/v1/video/generations')
      .set('Authorization', `Bearer ${customer.key}`)
      .send(body);
  };

  const lastTaskId = async (): Promise<string> => {
    const rows = await queryDatabase<{ task_id: string }>(
      gw.database,
      `SELECT task_id FROM tasks WHERE user_id = ${customer.userId} ORDER BY id DESC LIMIT 1`,
    );
    return rows[0].task_id;
  };

  const cases = FAMILIES.flatMap((family) => FAULTS.map((each) => [family.platform, each, family] as const));

  it.each(cases)('%s, %s: a 503, nothing charged, the second channel untouched', async (_platform, each, family) => {
    fault = each;
    const before = { first: first.requests.length, second: second.requests.length };
    const res = await submit(family);
    expect({ status: res.status, retryAfter: res.headers['retry-after'] !== undefined }).toEqual({ status: 503, retryAfter: true });
    // The create did reach the first provider (whatever the family sends before it); nothing reached the second.
    expect(first.requests.length).toBeGreaterThan(before.first);
    expect(second.requests.slice(before.second).map((req) => `${req.method} ${req.path}`)).toEqual([]);
    expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    const attempts = await attemptsOf(gw, await lastTaskId());
    expect(attempts).toHaveLength(1);
    expect(attempts[0].detail).toContain('may have been accepted: not sent elsewhere');
  });

  it.each(FAMILIES.map((family) => [family.platform, family] as const))(
    '%s, a 500 (the provider said no): the submit moves on to the second channel',
    async (_platform, family) => {
      fault = '500';
      const before = second.requests.length;
      const res = await submit(family);
      expect(res.status).toBe(503);
      expect(second.requests.length).toBeGreaterThan(before);
      expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    },
  );
});
