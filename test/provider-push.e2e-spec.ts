import { ServerSecret } from '../src/database/server-secret.service';
import type { EmulatorCallbacks } from '../src/families/simulator-shared/emulator-callbacks';
import { CALLBACK_TOKEN_PURPOSE, callbackTokenFor } from '../src/tasks/push/callback-token';
import { startFalEmulator } from './support/fal-emulator';
import { startGateway, TestGateway } from './support/gateway';
import type { RecordedRequest } from './support/http-server';
import { startKlingEmulator } from './support/kling-emulator';
import { startMinimaxEmulator } from './support/minimax-emulator';
import { startReplicateEmulator } from './support/replicate-emulator';
import { startSeedanceEmulator } from './support/seedance-emulator';
import { describeOnSqlite } from './support/test-databases';
import { until } from './support/until';
import { startViduEmulator } from './support/vidu-emulator';

/** Far beyond any test's length: a task that ends did so by its callback, never by a poll. */
const LONG_POLL_MS = 600_000;
/** The emulators call back this long after a submit (their task's end in these tests). */
const CALLBACK_AFTER_MS = 300;

/** A provider emulator as these tests use it: its requests, its callbacks, the next task's statuses. */
interface PushFake {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  callbacks: EmulatorCallbacks;
  scriptNext(steps: never[]): void;
  close(): Promise<void>;
}

interface PushCase {
  platform: string;
  start(): Promise<PushFake>;
  /** The channel's models and settings (fal's JWKS at its emulator). */
  channel(fake: PushFake): Record<string, unknown>;
  body: Record<string, unknown>;
  /** The script of a task that the first read finds finished. */
  done: unknown[];
  /** A status of a task still being made. */
  running: unknown;
  /** Whether a request to the provider is one read of the task (its status query). */
  isRead(req: RecordedRequest, upstreamId: string): boolean;
  /** Whether the provider signs its callbacks: what a forger changes of a signed one (then a 401). */
  signs: boolean;
  forge?(headers: Record<string, string>): Record<string, string>;
}

const CASES: PushCase[] = [
  {
    platform: 'fal',
    running: 'IN_PROGRESS',
    start: startFalEmulator,
    channel: (fake) => ({ models: ['fal-kling-v2-5-turbo-pro'], settings: { webhook_jwks_url: `${fake.url}/.well-known/jwks.json` } }),
    body: { model: 'fal-kling-v2-5-turbo-pro', prompt: 'a fox', seconds: '5' },
    done: ['COMPLETED'],
    isRead: (req, id) => req.method === 'GET' && req.path.endsWith(`/requests/${id}/status`),
    signs: true,
  },
  {
    platform: 'replicate',
    running: 'processing',
    start: startReplicateEmulator,
    channel: () => ({ models: ['replicate-kling-v2-5-turbo-pro'] }),
    body: { model: 'replicate-kling-v2-5-turbo-pro', prompt: 'a fox', seconds: '5' },
    done: ['succeeded'],
    isRead: (req, id) => req.method === 'GET' && req.path === `/v1/predictions/${id}`,
    signs: true,
  },
  {
    platform: 'kling',
    running: 'processing',
    start: startKlingEmulator,
    channel: () => ({ models: ['kling-v2-5-turbo'] }),
    body: { model: 'kling-v2-5-turbo', prompt: 'a fox', seconds: '5', size: '1280x720' },
    done: ['succeed'],
    isRead: (req, id) => req.method === 'GET' && req.path.endsWith(`/${id}`),
    signs: false,
  },
  {
    platform: 'kling',
    running: 'processing',
    start: startKlingEmulator,
    channel: () => ({ models: ['kling-v3-omni'] }),
    body: { model: 'kling-v3-omni', prompt: 'a fox', seconds: '5' },
    done: ['succeed'],
    isRead: (req, id) => req.method === 'GET' && req.path === `/v1/videos/omni-video/${id}`,
    signs: false,
  },
  {
    platform: 'vidu',
    running: 'processing',
    start: startViduEmulator,
    channel: () => ({ models: ['viduq3-turbo'] }),
    body: { model: 'viduq3-turbo', prompt: 'a fox', seconds: '5', size: '1280x720' },
    done: ['success'],
    isRead: (req, id) => req.method === 'GET' && req.path === `/ent/v2/tasks/${id}/creations`,
    signs: true,
    // Vidu signs the URL, the date and a nonce, not the body.
    forge: (headers) => ({ ...headers, 'x-request-nonce': 'forged' }),
  },
  {
    platform: 'minimax',
    running: 'Processing',
    start: startMinimaxEmulator,
    channel: () => ({ models: ['MiniMax-Hailuo-2.3'] }),
    body: { model: 'minimax-hailuo-2.3', prompt: 'a fox', seconds: '6' },
    done: ['Success'],
    isRead: (req, id) => req.method === 'GET' && req.path === '/v1/query/video_generation' && req.query.get('task_id') === id,
    signs: false,
  },
  {
    platform: 'minimax',
    running: 'Processing',
    start: startMinimaxEmulator,
    channel: () => ({ models: ['MiniMax-H3'] }),
    body: { model: 'MiniMax-H3', prompt: 'a fox', seconds: '5' },
    done: ['Success'],
    isRead: (req, id) => req.method === 'GET' && req.path === `/v2/query/video_generation/${id}`,
    signs: false,
  },
  {
    platform: 'seedance',
    running: 'running',
    start: startSeedanceEmulator,
    channel: () => ({ models: ['seedance-2-0-fast'] }),
    body: { model: 'seedance-2-0-fast', prompt: 'a fox', seconds: '5' },
    done: ['succeeded'],
    isRead: (req, id) => req.method === 'GET' && req.path === `/api/v3/contents/generations/tasks/${id}`,
    signs: false,
  },
];

const CALLBACK_PATH = (platform: string) => `/v1/provider-callbacks/${platform}/`;

/** The create call the provider received last, as text (its query and body): where the callback URL goes. */
const lastCreate = (fake: PushFake) => {
  const create = fake.requests.filter((req) => req.method === 'POST' && !req.path.includes('cancel')).at(-1)!;
  return `${create.query.toString()} ${create.body.toString('utf8')}`;
};

const metricValue = async (gw: TestGateway, name: string, labels: string) => {
  const text = (await gw.http.get('/metrics').expect(200)).text;
  const line = text.split('\n').find((row) => row.startsWith(`${name}{`) && row.includes(labels));
  return line ? Number(line.split(' ').at(-1)) : 0;
};

/**
 * Providers that push, per platform: the emulator calls back as its provider does (signed as it
 * signs) and the gateway reads the task at once, as a poll does. Polls are 10 minutes apart and the
 * gateway's clock stands still, so a task that ends here was ended by its callback; the sync runs on
 * its own schedule (as in production), the tests only wait for what a client sees.
 */
describe.each(CASES)('providers that push: $platform ($body.model)', (push) => {
  describeOnSqlite(push.platform, (kind) => {
    let fake: PushFake;
    let gw: TestGateway;
    let channelId: number;
    let customer: { userId: number; key: string };

    beforeAll(async () => {
      fake = await push.start();
      fake.callbacks.delayMs = CALLBACK_AFTER_MS;
      gw = await startGateway(kind, {
        TASK_SYNC_INTERVAL_MS: '200',
        PROVIDER_PUSH_POLL_MS: String(LONG_POLL_MS),
        // Set explicitly (push needs it); the port is known once the gateway listens.
        PUBLIC_BASE_URL: 'http://127.0.0.1:1',
      });
      gw.config.publicBaseUrl = gw.url;
      channelId = await gw.createChannel({
        name: `${push.platform}-push`,
        platform: push.platform,
        base_url: fake.url,
        api_key: fake.apiKey,
        ...push.channel(fake),
        settings: { poll_interval_ms: LONG_POLL_MS, ...(push.channel(fake).settings as object) },
      });
      customer = await gw.createCustomer({ quota: 1_000_000 });
    });

    afterAll(async () => {
      fake?.callbacks.cancelPending();
      await gw?.close();
      await fake?.close();
    });

    const submit = async () => {
      const res = await gw.http.post('/v1/video/generations').set('Authorization', `Bearer ${customer.key}`).send(push.body);
      expect(res.status).toBe(200);
      return res.body.task_id as string;
    };
    const task = async (taskId: string) => (await gw.admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body;
    const readsOf = (upstreamId: string) => fake.requests.filter((req) => push.isRead(req, upstreamId)).length;
    const ended = (taskId: string) =>
      until(`task ${taskId} ends`, async () => ((await task(taskId)).status === 'SUCCESS' ? task(taskId) : null), { timeoutMs: 20_000 });

    it("asks for a callback with the submit; the provider's callback ends the task long before its next poll, with one provider read", async () => {
      const before = await gw.balance(customer.userId);
      fake.scriptNext(push.done as never[]);
      const taskId = await submit();
      expect(decodeURIComponent(lastCreate(fake))).toContain(`${gw.url}${CALLBACK_PATH(push.platform)}${taskId}.`);
      const done = await ended(taskId);
      expect(fake.callbacks.sent.at(-1)).toMatchObject({ status: 200 });
      const reads = readsOf(done.upstream_task_id);
      process.stdout.write(`[push ${push.platform}] provider reads for task ${taskId}: ${reads}\n`);
      expect(reads).toBe(1);
      expect(await metricValue(gw, 'gateway_provider_reads_total', `platform="${push.platform}",reason="callback"`)).toBeGreaterThanOrEqual(
        1,
      );
      expect(
        await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="accepted"`),
      ).toBeGreaterThanOrEqual(1);
      const after = await gw.balance(customer.userId);
      expect(before.quota - after.quota).toBe(done.quota);
    });

    it('a callback replayed after the end, or forged, changes nothing and reads nothing', async () => {
      fake.scriptNext(push.done as never[]);
      const taskId = await submit();
      const done = await ended(taskId);
      const balance = await gw.balance(customer.userId);
      const reads = readsOf(done.upstream_task_id);
      const genuine = fake.callbacks.sent.at(-1)!;
      const [, token] = genuine.url.split(CALLBACK_PATH(push.platform));
      // Replayed as it was: answered (the provider may send twice), the task is not read again once it ended.
      expect(await fake.callbacks.send(genuine.url, genuine.body, () => genuine.headers)).toBe(200);
      // Forged: a changed token, another platform's path, no token.
      const forged = `${gw.url}${CALLBACK_PATH(push.platform)}${token.slice(0, -2)}xy`;
      expect(await fake.callbacks.send(forged, genuine.body, () => genuine.headers)).toBe(404);
      const elsewhere = push.platform === 'kling' ? 'vidu' : 'kling';
      expect(await fake.callbacks.send(`${gw.url}${CALLBACK_PATH(elsewhere)}${token}`, genuine.body, () => genuine.headers)).toBe(404);
      if (push.signs) {
        // The right token with a body (or header) the provider did not sign.
        const headers = push.forge?.(genuine.headers) ?? genuine.headers;
        expect(await fake.callbacks.send(genuine.url, JSON.stringify({ forged: true }), () => headers)).toBe(401);
        expect(
          await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="bad_signature"`),
        ).toBeGreaterThanOrEqual(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(readsOf(done.upstream_task_id)).toBe(reads);
      expect(await task(taskId)).toMatchObject({ status: 'SUCCESS' });
      expect(await gw.balance(customer.userId)).toEqual(balance);
      expect(
        await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="bad_token"`),
      ).toBeGreaterThanOrEqual(1);
    });

    it('a callback during the submit (before the provider id is stored) is not lost', async () => {
      fake.callbacks.delayMs = 0;
      try {
        fake.scriptNext(push.done as never[]);
        const taskId = await submit();
        const done = await ended(taskId);
        expect(readsOf(done.upstream_task_id)).toBe(1);
      } finally {
        fake.callbacks.delayMs = CALLBACK_AFTER_MS;
      }
    });

    it('callbacks replayed while the task runs cost at most one read a second; forged ones none', async () => {
      fake.scriptNext([...Array(20).fill(push.running), ...push.done] as never[]);
      const sent = fake.callbacks.sent.length;
      const taskId = await submit();
      const genuine = await until('the provider called back', () => fake.callbacks.sent[sent]);
      const upstreamId = (await until('the provider id is stored', async () => (await task(taskId)).upstream_task_id)) as string;
      await until('the callback read the task', () => readsOf(upstreamId) === 1);
      const limited = await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="rate_limited"`);
      const replays = await Promise.all(
        Array.from({ length: 10 }, () => fake.callbacks.send(genuine.url, genuine.body, () => genuine.headers)),
      );
      expect(replays).toEqual(Array(10).fill(200));
      if (push.signs) {
        // Unsigned, with the right token: refused, never read.
        const headers = push.forge?.(genuine.headers) ?? {};
        const forged = await Promise.all(
          Array.from({ length: 5 }, () => fake.callbacks.send(genuine.url, '{"status":"succeeded"}', () => headers)),
        );
        expect(forged).toEqual(Array(5).fill(401));
      }
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      // Eleven callbacks (and five forged) within a moment: the reads are one a second at most.
      expect(readsOf(upstreamId)).toBeLessThanOrEqual(3);
      expect(
        await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="rate_limited"`),
      ).toBeGreaterThanOrEqual(limited + 8);
      expect(await task(taskId)).toMatchObject({ status: expect.not.stringMatching(/SUCCESS|FAILURE/) });
    });

    it('a provider that never calls back: the task ends by the safety net poll', async () => {
      fake.callbacks.enabled = false;
      try {
        fake.scriptNext(push.done as never[]);
        const taskId = await submit();
        const upstreamId = (await until('the provider id is stored', async () => (await task(taskId)).upstream_task_id)) as string;
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(readsOf(upstreamId)).toBe(0);
        gw.clock.advance(LONG_POLL_MS + 1_000);
        await ended(taskId);
        expect(readsOf(upstreamId)).toBe(1);
      } finally {
        fake.callbacks.enabled = true;
      }
    });

    it('bad input is a 4xx and nothing else: not JSON, over 1 MiB, an unknown task', async () => {
      const secret = gw.app.get(ServerSecret).derive(CALLBACK_TOKEN_PURPOSE);
      const unknown = `${gw.url}${CALLBACK_PATH(push.platform)}${callbackTokenFor('task_doesNotExist000000000000000000', secret)}`;
      const before = await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="unknown_task"`);
      expect(await fake.callbacks.send(unknown, '{}')).toBe(404);
      expect(await metricValue(gw, 'gateway_provider_callbacks_total', `platform="${push.platform}",result="unknown_task"`)).toBe(
        before + 1,
      );
      expect(await fake.callbacks.send(unknown, 'not json')).toBe(400);
      expect(await fake.callbacks.send(unknown, JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }))).toBe(413);
      // Never a customer's API: no key is asked for, and an API key is not what opens it.
      const withKey = await gw.http.post(new URL(unknown).pathname).set('Authorization', `Bearer ${customer.key}`).send({});
      expect(withKey.status).toBe(404);
      // Not a customer API: Swagger does not show it.
      const docs = (await gw.http.get('/docs-json').expect(200)).body as { paths: Record<string, unknown> };
      expect(Object.keys(docs.paths).filter((path) => path.includes('provider-callbacks'))).toEqual([]);
      expect(Object.keys(docs.paths).length).toBeGreaterThan(10);
    });

    it('settings.push false sends no callback URL', async () => {
      await gw.admin.patch(`/api/admin/channels/${channelId}`, { settings: { push: false } }).expect(200);
      try {
        const taskId = await submit();
        expect(lastCreate(fake)).not.toContain('provider-callbacks');
        expect(decodeURIComponent(lastCreate(fake))).not.toContain(taskId);
      } finally {
        await gw.admin.patch(`/api/admin/channels/${channelId}`, { settings: { push: null } }).expect(200);
      }
    });
  });
});
