import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shapedSampleVideo } from '../src/families/simulator-shared/shaped-sample';
import type { EmulatedVideo } from '../src/families/simulator-shared/emulator-http';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { admin, call, customer } from './support/process-api';
import { databaseKinds, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';
import { testVideoBytes } from './support/emulator-server';
import { until } from './support/until';

const TASKS = 200;
/** alpha/v6 at 720p, silent: 9 credits a second. */
const ASKED = { model: 'alpha/v6', prompt: 'a harbour at dawn', duration: 5, resolution: '720P' };

/** What the provider delivers, in turn: exact, shorter, smaller, longer and sharper with sound, short and small, no video at all. */
const DELIVERIES = [
  { seconds: 5, width: 1280, height: 720, audio: false },
  { seconds: 3, width: 1280, height: 720, audio: false },
  { seconds: 5, width: 640, height: 360, audio: false },
  { seconds: 6, width: 1920, height: 1080, audio: true },
  { seconds: 2, width: 640, height: 360, audio: true },
  null,
];

const itOnMysql = databaseKinds().includes('mysql') ? it : it.skip;

/**
 * Billing on what was delivered, at scale and across instances: two gateway processes on one MariaDB
 * and one video store settle 200 tasks whose videos come back in random shapes. Each task is settled
 * once (one charge, one refund at most, its final charge what it delivered), the ledger equals the
 * balance, the customer's usage report sums to what they paid, the operator's margin to charged less
 * refunded less cost.
 */
describe('settlement across instances', () => {
  let fake: AlphaEmulatorServer;
  let database: FreshDatabase | undefined;
  const gateways: GatewayProcess[] = [];
  const store = mkdtempSync(join(tmpdir(), 'gw-settle-instances-'));

  beforeAll(async () => {
    fake = await startAlphaEmulator();
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.crash();
    await database?.drop();
    await fake?.close();
    rmSync(store, { recursive: true, force: true });
  });

  itOnMysql(
    '[mysql] 200 tasks with random delivered shapes over two instances: each settled once, usage and margin add up to the ledger',
    async () => {
      const clips = await Promise.all(
        DELIVERIES.map(async (shape): Promise<EmulatedVideo> =>
          shape ? { file: await shapedSampleVideo(shape) } : { bytes: testVideoBytes() },
        ),
      );
      // A clip at random per fetch, whatever was asked (a fetch again after a failed copy may get another: it is read as stored).
      fake.videoSource = { madeFor: async () => clips[Math.floor(Math.random() * clips.length)] };

      database = await freshDatabase('mysql');
      const env = {
        DATABASE_URL: database.url,
        ADMIN_TOKEN,
        TASK_SYNC_INTERVAL_MS: '100',
        // No process crashes here: a lease long enough that a submit slowed by a loaded machine still has its 10 s upstream.
        TASK_LEASE_MS: '20000',
        MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
        VIDEO_STORE: `file:${store}`,
      };
      gateways.push(...(await Promise.all([startGatewayProcess(env), startGatewayProcess(env)])));
      const [one, two] = gateways;
      await admin(
        one,
        'POST',
        '/api/admin/channels',
        alphaChannelBody(fake, { models: ['alpha/v6'], settings: { poll_interval_ms: 400 } }),
      );
      const { userId, key } = await customer(one, { quota: 10_000_000 });

      // Eight at a time, spread over both instances.
      let next = 0;
      const submitter = async () => {
        while (next < TASKS) {
          const i = next++;
          const res = await call(gateways[i % 2], key, 'POST', '/v1/videos', { ...ASKED, prompt: `${ASKED.prompt} ${i}` });
          expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
        }
      };
      await Promise.all(Array.from({ length: 8 }, submitter));
      const rows = await until(
        `${TASKS} tasks settled`,
        () =>
          queryDatabase<{ task_id: string; status: string; quota: number; final_quota: number | null; settled_at: unknown }>(
            database!,
            `SELECT task_id, status, quota, final_quota, settled_at FROM tasks WHERE user_id = ${userId}`,
          ),
        { done: (tasks) => tasks.length === TASKS && tasks.every((task) => task.settled_at !== null), timeoutMs: 150_000, everyMs: 500 },
      );

      const ledger: Array<{ task_id: string | null; type: string; quota: number }> = [];
      for (let page = 1; ; page++) {
        const res = await admin(one, 'GET', `/api/admin/logs?user_id=${userId}&page=${page}&page_size=200`);
        ledger.push(...res.data);
        if (ledger.length >= res.total) break;
      }
      const user = await admin(one, 'GET', `/api/admin/users/${userId}`);
      // The ledger equals the balance.
      expect(ledger.reduce((sum, row) => sum + row.quota, 0)).toBe(user.quota);
      let paid = 0;
      const refunded = { some: 0, none: 0 };
      for (const task of rows) {
        expect(task.status).toBe('SUCCESS');
        const charges = ledger.filter((row) => row.task_id === task.task_id && row.type === 'consume');
        const refunds = ledger.filter((row) => row.task_id === task.task_id && row.type === 'refund');
        expect(charges).toHaveLength(1);
        expect(refunds.length).toBeLessThanOrEqual(1);
        // Its final charge is what it paid: the charge at submit less the one refund.
        const net = -charges[0].quota - (refunds[0]?.quota ?? 0);
        expect(Number(task.final_quota)).toBe(net);
        expect(net).toBeLessThanOrEqual(Number(task.quota));
        paid += net;
        refunded[refunds.length ? 'some' : 'none']++;
      }
      // Both kinds happened: videos short of what was asked, and videos as asked or more.
      expect(refunded.some).toBeGreaterThan(0);
      expect(refunded.none).toBeGreaterThan(0);
      expect(10_000_000 - user.quota).toBe(paid);

      // The customer's usage report sums to what they paid; the operator's margin to charged, less refunded, less cost.
      const from = Math.floor(Date.now() / 1000) - 3600;
      const mine = (await call(two, key, 'GET', `/v1/usage?group_by=model&from=${from}`)).body;
      expect(mine.data.reduce((sum: number, row: { quota: number }) => sum + row.quota, 0)).toBe(paid);
      expect(mine.data.reduce((sum: number, row: { tasks: number }) => sum + row.tasks, 0)).toBe(TASKS);
      const operator = await admin(two, 'GET', `/api/admin/usage?group_by=model&from=${from}`);
      for (const row of operator.data)
        expect(row.margin_usd).toBeCloseTo(row.usd_charged - row.usd_refunded - (row.provider_cost_usd ?? 0), 5);
    },
    300_000,
  );
});
