import { AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';
import { databaseKinds, DatabaseKind, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

/** alpha/v5 720p 5 s: 60 credits. */
const PRICE = 6000;
const POLL_INTERVAL_MS = 400;
/** The kill -9 test's lease: the new instance takes the dead one's tasks once it lapses. */
const KILLED_LEASE_MS = 8000;

interface Api {
  admin(method: string, path: string, body?: unknown): Promise<any>;
  client(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

const api = (gateway: GatewayProcess): Api => ({
  async admin(method, path, body) {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  },
  async client(key, method, path, body) {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  },
});

/**
 * A submit has half the lease to hear from the provider before its answer counts as late, so only the kill -9 test,
 * which waits for the dead instance's leases to lapse, takes a short one; on a loaded machine 3 s was too short.
 */
const processEnv = (database: FreshDatabase, leaseMs = 20_000) => ({
  DATABASE_URL: database.url,
  ADMIN_TOKEN,
  TASK_SYNC_INTERVAL_MS: '100',
  TASK_LEASE_MS: String(leaseMs),
  MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
});

async function setUp(gateway: Api, fake: AlphaEmulatorServer, tasks: number) {
  await gateway.admin('POST', '/api/admin/channels', {
    name: 'alpha',
    platform: 'alpha',
    base_url: fake.url,
    api_key: fake.apiKey,
    models: ['alpha/v5'],
    settings: { poll_interval_ms: POLL_INTERVAL_MS },
  });
  const user = await gateway.admin('POST', '/api/admin/users', { username: 'load', quota: tasks * PRICE });
  const key = await gateway.admin('POST', `/api/admin/users/${user.id}/keys`, { name: 'load' });
  return { userId: user.id as number, key: key.key as string };
}

/** Every 5th video fails upstream, every 7th is refused by moderation, the rest finish after a few polls. */
function scriptFor(i: number): number[] {
  if (i % 5 === 0) return finishAfter(2, 8);
  if (i % 7 === 0) return finishAfter(1, 7);
  return finishAfter(3);
}

async function allTasks(gateway: Api, userId: number) {
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const res = await gateway.admin('GET', `/api/admin/tasks?user_id=${userId}&page=${page}&page_size=200`);
    rows.push(...res.data);
    if (rows.length >= res.total) return rows;
  }
}

/** Waits until the user has `expected` tasks, every one ended, and answers them. */
const settled = (gateway: Api, userId: number, expected: number) =>
  until(`${expected} tasks of user ${userId}, all ended`, () => allTasks(gateway, userId), {
    done: (tasks) => tasks.length === expected && tasks.every((task) => ['SUCCESS', 'FAILURE'].includes(task.status)),
    timeoutMs: 90_000,
    everyMs: 300,
  });

async function allLogs(gateway: Api, userId: number) {
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const res = await gateway.admin('GET', `/api/admin/logs?user_id=${userId}&page=${page}&page_size=200`);
    rows.push(...res.data);
    if (rows.length >= res.total) return rows;
  }
}

/** Money checks: one charge per task, one refund per failed task and none otherwise, the ledger sums to the balance. */
async function expectExactMoney(gateway: Api, userId: number, tasks: any[], fake: AlphaEmulatorServer) {
  const logs = await allLogs(gateway, userId);
  const user = await gateway.admin('GET', `/api/admin/users/${userId}`);
  const sum = logs.reduce((total, log) => total + log.quota, 0);
  expect(sum).toBe(user.quota);
  for (const task of tasks) {
    const charges = logs.filter((log) => log.task_id === task.task_id && log.type === 'consume');
    const refunds = logs.filter((log) => log.task_id === task.task_id && log.type === 'refund');
    expect(charges).toHaveLength(1);
    expect(refunds).toHaveLength(task.status === 'FAILURE' ? 1 : 0);
    // The end state is the one the provider scripted for the task's video.
    const video = fake.videos.get(Number(task.upstream_task_id))!;
    const script = video.script!;
    const last = script[script.length - 1];
    expect(task.status).toBe(last === 1 ? 'SUCCESS' : 'FAILURE');
  }
  const failed = tasks.filter((task) => task.status === 'FAILURE').length;
  expect(user.quota).toBe(failed * PRICE);
  expect(user.used_quota).toBe((tasks.length - failed) * PRICE);
}

/** Submits `count` tasks, `parallel` at a time, spreading them over the gateways. */
async function submitMany(
  gateways: Api[],
  key: string,
  count: number,
  fake: AlphaEmulatorServer,
  parallel = 8,
  script: (i: number) => number[] = scriptFor,
) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      fake.scriptNext(script(i));
      const res = await gateways[i % gateways.length].client(key, 'POST', '/v1/videos', { model: 'alpha/v5', prompt: `task ${i}` });
      expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

const itOnMysql = databaseKinds().includes('mysql') ? it : it.skip;

describe('task sync across processes', () => {
  let fake: AlphaEmulatorServer;
  const started: GatewayProcess[] = [];
  const databases: FreshDatabase[] = [];

  beforeAll(async () => {
    fake = await startAlphaEmulator();
  });
  afterEach(async () => {
    for (const gateway of started.splice(0)) await gateway.crash();
    for (const database of databases.splice(0)) await database.drop();
    fake.reset();
  });
  afterAll(async () => fake?.close());

  const boot = async (kind: DatabaseKind) => {
    const database = await freshDatabase(kind);
    databases.push(database);
    return database;
  };
  const launch = async (database: FreshDatabase, leaseMs?: number) => {
    const gateway = await startGatewayProcess(processEnv(database, leaseMs));
    started.push(gateway);
    return gateway;
  };

  itOnMysql(
    '[mysql] two gateways on one database finish 200 tasks, never poll one task twice in a round, and refund each failure once',
    async () => {
      const database = await boot('mysql');
      const [one, two] = await Promise.all([launch(database), launch(database)]);
      const gateways = [api(one), api(two)];
      const { userId, key } = await setUp(gateways[0], fake, 200);
      await submitMany(gateways, key, 200, fake);
      const tasks = await settled(gateways[0], userId, 200);

      // No task was polled by both instances in one round: polls of one video are an interval apart.
      for (const video of fake.videos.values()) {
        const times = fake
          .calls('result')
          .filter((call) => call.path.endsWith(`/${video.id}`))
          .map((call) => call.at)
          .sort((a, b) => a - b);
        for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(POLL_INTERVAL_MS * 0.75);
      }
      // Both instances did polling work.
      for (const gateway of [one, two]) {
        const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
        const polls = [...metrics.matchAll(/^gateway_task_polls_total\{[^}]*\} (\d+)/gm)].reduce(
          (total, match) => total + Number(match[1]),
          0,
        );
        expect(polls).toBeGreaterThan(0);
      }
      await expectExactMoney(gateways[0], userId, tasks, fake);
    },
    180_000,
  );

  for (const kind of databaseKinds()) {
    it(`[${kind}] SIGTERM stops claiming, hands claimed work back and exits; a new instance finishes the work`, async () => {
      const database = await boot(kind);
      const first = await launch(database);
      const gateway = api(first);
      const { userId, key } = await setUp(gateway, fake, 30);
      await submitMany([gateway], key, 30, fake, 4, () => finishAfter(12));
      // A slow provider: when SIGTERM arrives, polls are in flight and more are queued.
      fake.inject('result', { delayMs: 2500 });
      const resultsBefore = fake.calls('result').length;
      await until('polls to be in flight', () => fake.calls('result').length, { done: (results) => results > resultsBefore });
      const exit = await Promise.race([
        first.stop().then(() => 'exited'),
        new Promise((resolve) => setTimeout(() => resolve('still running'), 20_000)),
      ]);
      expect(exit).toBe('exited');
      started.splice(started.indexOf(first), 1);
      fake.clearFaults();
      // Nothing is left leased to the stopped instance.
      const leased = await queryDatabase(
        database,
        "SELECT task_id FROM tasks WHERE lease_owner IS NOT NULL AND status NOT IN ('SUCCESS', 'FAILURE')",
      );
      expect(leased).toEqual([]);
      const second = await launch(database);
      const tasks = await settled(api(second), userId, 30);
      expect(tasks.every((task) => task.status === 'SUCCESS')).toBe(true);
      const logs = await allLogs(api(second), userId);
      expect(logs.filter((log) => log.type === 'consume')).toHaveLength(30);
      expect(logs.filter((log) => log.type === 'refund')).toHaveLength(0);
    }, 180_000);

    it(`[${kind}] kill -9 during submits and a sync round: after a restart every task still ends right, with no double refund`, async () => {
      const database = await boot(kind);
      const first = await launch(database, KILLED_LEASE_MS);
      const gateway = api(first);
      const { userId, key } = await setUp(gateway, fake, 40);
      await submitMany([gateway], key, 30, fake);

      // Polls hang upstream, so the sync round is mid-flight with leased tasks...
      fake.inject('result', { hang: true });
      // ...and a few submits are cut off between the charge and the upstream answer.
      fake.inject('generate', { hang: true });
      for (let i = 30; i < 40; i++) fake.scriptNext(scriptFor(i));
      const generatesBefore = fake.calls('generate').length;
      const cutOff = Array.from({ length: 10 }, (_, i) =>
        gateway.client(key, 'POST', '/v1/videos', { model: 'alpha/v5', prompt: `late ${i}` }).catch(() => null),
      );
      // Crash once every cut-off submit is charged and hanging upstream (however slow the machine).
      await until('the 10 submits to hang upstream', () => fake.calls('generate').length - generatesBefore, {
        done: (hanging) => hanging >= 10,
      });
      await first.crash();
      await Promise.all(cutOff);
      fake.clearFaults();

      const second = await launch(database, KILLED_LEASE_MS);
      const tasks = await settled(api(second), userId, 40);
      await expectExactMoney(api(second), userId, tasks, fake);
      // The interrupted submits were resubmitted with their original trace id, so the provider de-duplicated them.
      for (const count of fake.submitsByTraceId.values()) expect(count).toBeLessThanOrEqual(2);
    }, 180_000);
  }
});
