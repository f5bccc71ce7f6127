import type { Response } from 'supertest';
import { TaskLeaseRepository } from '../src/tasks/repositories/task-lease.repository';
import { alphaChannelBody, fakePng, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './support/http-server';
import { describeEachDatabase, itOnSqliteOnly, queryDatabase } from './support/test-databases';
import { until } from './support/until';

/**
 * "Faults lose nothing", the submit side: a submit never outlives its task's lease (it has a
 * deadline well under it and keeps the lease while it runs), never tells a client `queued` for a
 * task the sync already failed, and an Idempotency-Key replay never hands out a task id that will
 * not become visible. A short lease (6 s, so a 3 s submit deadline) lets the tests show it in real
 * time; the late upstream answers (1.3 s and 1.4 s) leave a busy machine over a second of slack.
 */
const LEASE_MS = 6000;
const QUOTA = 1_000_000;
/** beta-1.0-t2v 720P 5 s: 10 credits a second. */
const BETA_PRICE = 5000;
/** alpha/v5 720p 5 s: 60 credits. */
const V5_PRICE = 6000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A family B channel in front of the fake provider, with knobs: answer the submit late, refuse it
 * (HTTP 400 InvalidParameter), or fail it (HTTP 500). Queries always go straight through.
 */
interface BetaChannelProxy {
  url: string;
  submitDelayMs: number;
  /** Set, submits wait for it (instead of `submitDelayMs`): a channel the test holds for as long as it needs. */
  hold?: Promise<unknown>;
  answer: 'forward' | 'refuse' | 'error500';
  /** Submits this channel received (before any delay). */
  submits: RecordedRequest[];
  close(): Promise<void>;
}

async function startBetaChannelProxy(
  target: BetaEmulatorServer,
  options: Partial<Pick<BetaChannelProxy, 'submitDelayMs' | 'answer'>> = {},
): Promise<BetaChannelProxy> {
  const proxy: BetaChannelProxy = {
    url: '',
    submitDelayMs: options.submitDelayMs ?? 0,
    answer: options.answer ?? 'forward',
    submits: [],
    close: async () => undefined,
  };
  const server: LoopbackServer = await startLoopbackServer(async (req, res) => {
    if (req.method === 'POST') {
      proxy.submits.push(req);
      if (proxy.hold) await proxy.hold.catch(() => undefined);
      else if (proxy.submitDelayMs > 0) await sleep(proxy.submitDelayMs);
      if (proxy.answer === 'refuse')
        return sendJson(res, 400, { request_id: 'r', code: 'InvalidParameter', message: 'the prompt is not acceptable' });
      if (proxy.answer === 'error500') return sendJson(res, 500, { request_id: 'r', code: 'InternalError', message: 'slow and broken' });
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'x-dashscope-async']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const query = req.query.toString();
    const answer = await fetch(`${target.url}${req.path}${query ? `?${query}` : ''}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? new Uint8Array(req.body) : undefined,
    });
    const text = await answer.text();
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  proxy.url = server.url;
  proxy.close = () => server.close();
  return proxy;
}

describeEachDatabase('faults: a submit never outlives its lease; Idempotency-Key replays never hand out invisible tasks', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  let slowA: BetaChannelProxy;
  let slowB: BetaChannelProxy;
  let late: BetaChannelProxy;
  let refuser: BetaChannelProxy;

  beforeAll(async () => {
    [alpha, beta] = await Promise.all([startAlphaEmulator(), startBetaEmulator()]);
    slowA = await startBetaChannelProxy(beta, { submitDelayMs: 3600, answer: 'error500' });
    slowB = await startBetaChannelProxy(beta, { submitDelayMs: 3600, answer: 'error500' });
    late = await startBetaChannelProxy(beta, { submitDelayMs: 1300 });
    refuser = await startBetaChannelProxy(beta, { answer: 'refuse' });
    gw = await startGateway(kind, { TASK_LEASE_MS: String(LEASE_MS) });
    // Routing by user group: `default` reaches family A and the plain family B channel; `slow`
    // meets two slow, failing channels before the working one; `late` and `refuse` one channel each.
    await gw.createChannel(alphaChannelBody(alpha, { groups: ['default'] }));
    await gw.createChannel(
      betaChannelBody(beta, { name: 'beta-working', models: ['beta-1.0-t2v'], groups: ['default', 'slow'], priority: 0 }),
    );
    for (const [name, proxy] of [
      ['beta-slow-a', slowA],
      ['beta-slow-b', slowB],
    ] as const) {
      await gw.createChannel({
        name,
        platform: 'beta',
        base_url: proxy.url,
        api_key: beta.apiKey,
        models: ['beta-1.0-t2v'],
        groups: ['slow'],
        priority: 10,
      });
    }
    await gw.createChannel({
      name: 'beta-late',
      platform: 'beta',
      base_url: late.url,
      api_key: beta.apiKey,
      models: ['beta-1.0-t2v'],
      groups: ['late'],
    });
    await gw.createChannel({
      name: 'beta-refuser',
      platform: 'beta',
      base_url: refuser.url,
      api_key: beta.apiKey,
      models: ['beta-1.0-t2v'],
      groups: ['refuse'],
    });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([alpha?.close(), beta?.close(), slowA?.close(), slowB?.close(), late?.close(), refuser?.close()]);
  });
  afterEach(() => alpha.clearFaults());

  const post = (path: string, key: string, body: object, idempotencyKey?: string) => {
    const req = gw.http.post(path).set('Authorization', `Bearer ${key}`);
    if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
    return req.send(body);
  };
  /** Starts a request now (supertest sends on `then`) and hands back its eventual response. */
  const start = (test: PromiseLike<Response>): Promise<Response> => Promise.resolve(test.then((res) => res));
  const betaBody = (prompt: string) => ({ model: 'beta-1.0-t2v', prompt, size: '720P' });
  const getVideo = (key: string, id: string) => gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`);
  const getGeneration = (key: string, id: string) => gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`);
  const visibleTasks = async (key: string) =>
    (await gw.http.get('/v1/videos?limit=100').set('Authorization', `Bearer ${key}`).expect(200)).body.data as Array<{
      id: string;
      status: string;
    }>;
  const ledger = async (userId: number) => {
    const logs = (await gw.admin.get(`/api/admin/logs?user_id=${userId}&page_size=100`).expect(200)).body.data as Array<{
      type: string;
      task_id: string;
      quota: number;
    }>;
    const ofType = (type: string) => logs.filter((log) => log.type === type);
    return { consume: ofType('consume'), refund: ofType('refund'), hold: ofType('hold'), release: ofType('release') };
  };
  /** One charge for the task, no refund, and the balance down by its price. */
  const expectChargedOnce = async (userId: number, taskId: string, price: number) => {
    const { consume, refund } = await ledger(userId);
    expect(consume.map((log) => log.task_id)).toEqual([taskId]);
    expect(refund).toEqual([]);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - price, used_quota: price });
  };
  /** A submit the client never got: its hold released, no charge or refund the customer would see, the balance whole again. */
  const expectHeldThenReleased = async (userId: number, taskId: string) => {
    const { consume, refund, hold, release } = await ledger(userId);
    expect([consume, refund]).toEqual([[], []]);
    expect(hold.map((log) => log.task_id)).toEqual([taskId]);
    expect(release.map((log) => log.task_id)).toEqual([taskId]);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  };

  const tasksOf = (userId: number) =>
    queryDatabase<{ task_id: string; status: string; lease_until: number | string | null; lease_owner: string | null }>(
      gw.database,
      `SELECT task_id, status, lease_until, lease_owner FROM tasks WHERE user_id = ${Number(userId)} ORDER BY id`,
    );
  /** Waits until the user's first task is recorded (SUBMITTING, charged) and returns its id. */
  const recorded = async (userId: number): Promise<string> => {
    const [task] = await until(`user ${userId}'s submit to record its task`, () => tasksOf(userId), {
      done: (tasks) => tasks.length > 0,
      timeoutMs: 5000,
      everyMs: 10,
    });
    return task.task_id;
  };
  /** Lets the clock jump past the lease, then waits (bounded) for the running submit to push the lease out again, or to end. */
  const jumpPastLease = async (userId: number) => {
    gw.clock.advance(LEASE_MS + 1000);
    // Bounded, not asserted: the assertions after it say what went wrong.
    await until('the submit to push its lease out, or to end', () => tasksOf(userId), {
      done: ([task]) => task?.status !== 'SUBMITTING' || Number(task.lease_until) > gw.clock.now(),
      timeoutMs: 5000,
      everyMs: 10,
    }).catch(() => undefined);
  };

  it('slow channels ahead of a working one: the submit stops at its deadline with 503 + Retry-After, refunded once, and the sync finds nothing to settle', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA, group: 'slow' });
    const workingBefore = beta.submits().length;
    const startedAt = Date.now();
    const pending = start(post('/v1/video/generations', key, betaBody('slow channels first')));
    const taskId = await recorded(userId);
    // The lease runs out while (without a deadline) the submit would still be on the slow channels.
    await sleep(LEASE_MS + 300 - (Date.now() - startedAt));
    await gw.sync();
    const res = await pending;

    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toEqual({ code: 'service_unavailable', message: expect.any(String), data: null });
    // Nothing reached the working channel, so no provider job is left behind.
    expect(beta.submits().length).toBe(workingBefore);
    expect(slowA.submits.length + slowB.submits.length).toBeGreaterThanOrEqual(1);
    await getGeneration(key, taskId).expect(404);
    expect(await visibleTasks(key)).toEqual([]);
    await gw.sync();
    await expectHeldThenReleased(userId, taskId);
  });

  it('a submit still running keeps its lease: the sync leaves it alone; the client gets a live task it can see and follow, charged once, never refunded', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA, group: 'late' });
    const workingBefore = beta.submits().length;
    const pending = start(post('/v1/video/generations', key, betaBody('answered late')));
    const taskId = await recorded(userId);
    await jumpPastLease(userId);
    await gw.sync();
    const res = await pending;

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: taskId, status: 'queued' });
    expect((await getGeneration(key, taskId).expect(200)).body.data).toMatchObject({
      task_id: taskId,
      status: expect.not.stringMatching(/FAILURE/),
    });
    expect(beta.submits().length).toBe(workingBefore + 1);
    for (let i = 0; i < 4; i++) {
      gw.clock.advance(15_000);
      await gw.sync();
    }
    expect((await getVideo(key, taskId).expect(200)).body.status).toBe('completed');
    await expectChargedOnce(userId, taskId, BETA_PRICE);
  });

  it('family A: an image upload slower than the submit deadline is cut off with 503 + Retry-After, refunded, uploaded once, never generated, never re-run by the sync', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const uploadsBefore = alpha.calls('upload').length;
    const generatesBefore = alpha.calls('generate').length;
    // The scaled-down "55 s upload" of a 60 s lease, followed by a slowish generate.
    alpha.inject('upload', { delayMs: LEASE_MS - 100 }, 1);
    alpha.inject('generate', { delayMs: 600 }, 1);
    const image = `data:image/png;base64,${fakePng(4096).toString('base64')}`;
    const startedAt = Date.now();
    const pending = start(post('/v1/videos', key, { model: 'alpha/v5', prompt: 'slow upload', image }));
    const taskId = await recorded(userId);
    await sleep(LEASE_MS + 200 - (Date.now() - startedAt));
    await gw.sync();
    const res = await pending;

    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.error).toMatchObject({ code: 'service_unavailable', type: 'server_error' });
    await gw.sync();
    expect(alpha.calls('upload').length - uploadsBefore).toBe(1);
    expect(alpha.calls('generate').length - generatesBefore).toBe(0);
    await getVideo(key, taskId).expect(404);
    await expectHeldThenReleased(userId, taskId);
  });

  it('family A: an upload that outlasts a (jumped) lease keeps it: uploaded and generated once, 200 queued, visible', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const uploadsBefore = alpha.calls('upload').length;
    const generatesBefore = alpha.calls('generate').length;
    alpha.inject('upload', { delayMs: 1300 }, 1);
    const image = `data:image/png;base64,${fakePng(4096).toString('base64')}`;
    const pending = start(post('/v1/videos', key, { model: 'alpha/v5', prompt: 'upload within the deadline', image }));
    const taskId = await recorded(userId);
    await jumpPastLease(userId);
    await gw.sync();
    const res = await pending;

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: taskId, status: 'queued' });
    expect((await getVideo(key, taskId).expect(200)).body.status).toBe('queued');
    expect(alpha.calls('upload').length - uploadsBefore).toBe(1);
    expect(alpha.calls('generate').length - generatesBefore).toBe(1);
    await expectChargedOnce(userId, taskId, V5_PRICE);
  });

  it('a submit that lost its task to the sync answers 503 + Retry-After, never 200 for a failed task; the same Idempotency-Key then starts a new, live task', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA, group: 'late' });
    const pending = start(post('/v1/video/generations', key, betaBody('lost to the sync'), 'lost-1'));
    const taskId = await recorded(userId);
    // Another instance takes the task over (as it would after a long stall of this one), and its sync settles it.
    const far = gw.clock.now() + 10 * LEASE_MS;
    const stolen = await gw.app.get(TaskLeaseRepository).claimDueTasks('other-instance#1', far, far + LEASE_MS, 50, ['SUBMITTING']);
    expect(stolen.map((task) => task.taskId)).toEqual([taskId]);
    gw.clock.advance(12 * LEASE_MS);
    await gw.sync();
    const res = await pending;

    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ code: 'service_unavailable', data: null });
    // The task was settled exactly once: failed as interrupted and refunded.
    const settled = (await getGeneration(key, taskId).expect(200)).body.data;
    expect(settled).toMatchObject({ status: 'FAILURE', fail_reason: expect.stringContaining('interrupted') });

    const retry = await post('/v1/video/generations', key, betaBody('lost to the sync'), 'lost-1').expect(200);
    expect(retry.body.id).not.toBe(taskId);
    expect(retry.body.status).toBe('queued');
    await getGeneration(key, retry.body.id).expect(200);
    const { consume, refund } = await ledger(userId);
    expect(consume.map((log) => log.task_id).sort()).toEqual([taskId, retry.body.id].sort());
    expect(refund.map((log) => log.task_id)).toEqual([taskId]);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - BETA_PRICE, used_quota: BETA_PRICE });
  });

  it('family A: a submit taken over by the sync is resubmitted with the same trace id: one provider job, followed, charged once; the client never sees a failure', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const videosBefore = alpha.videos.size;
    const generatesBefore = alpha.calls('generate').length;
    alpha.inject('generate', { delayMs: 1300 }, 1);
    const pending = start(post('/v1/videos', key, { model: 'alpha/v5', prompt: 'taken over' }, 'a-taken-over'));
    const taskId = await recorded(userId);
    const far = gw.clock.now() + 10 * LEASE_MS;
    await gw.app.get(TaskLeaseRepository).claimDueTasks('other-instance#2', far, far + LEASE_MS, 50, ['SUBMITTING']);
    gw.clock.advance(12 * LEASE_MS);
    await gw.sync();
    const res = await pending;

    // The task as it now is (live), or, had the resubmit still been running, a 503 to retry with the key.
    if (res.status === 200) expect(res.body).toMatchObject({ id: taskId, status: 'queued' });
    else {
      expect(res.status).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect((await post('/v1/videos', key, { model: 'alpha/v5', prompt: 'taken over' }, 'a-taken-over').expect(200)).body.id).toBe(taskId);
    }
    expect(alpha.calls('generate').length - generatesBefore).toBe(2);
    expect(alpha.videos.size - videosBefore).toBe(1);
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(5000);
      await gw.sync();
    }
    expect((await getVideo(key, taskId).expect(200)).body.status).toBe('completed');
    await expectChargedOnce(userId, taskId, V5_PRICE);
  });

  it('family A: a submit without an Idempotency-Key whose takeover is still resubmitting it is refused before its 503 (never runs, never charged), or answered with the live task', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    alpha.inject('generate', { delayMs: 1300 }, 1);
    // The resubmit answers after the first submit does, within its own deadline (half the lease).
    alpha.inject('generate', { delayMs: 1400 }, 1);
    const pending = start(post('/v1/videos', key, { model: 'alpha/v5', prompt: 'taken over, no key' }));
    const taskId = await recorded(userId);
    const far = gw.clock.now() + 10 * LEASE_MS;
    await gw.app.get(TaskLeaseRepository).claimDueTasks('other-instance#3', far, far + LEASE_MS, 50, ['SUBMITTING']);
    gw.clock.advance(12 * LEASE_MS);
    const resubmitting = gw.sync();
    const res = await pending;
    await resubmitting;
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(5000);
      await gw.sync();
    }
    if (res.status === 200) {
      // The resubmit got there first: the client has the live task, charged once.
      expect(res.body).toMatchObject({ id: taskId });
      await expectChargedOnce(userId, taskId, V5_PRICE);
      return;
    }
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The client cannot find this task again: it never becomes visible, nothing stays charged.
    expect((await tasksOf(userId)).map((task) => task.status)).toEqual(['REJECTED']);
    expect((await visibleTasks(key)).map((task) => task.id)).not.toContain(taskId);
    await expectHeldThenReleased(userId, taskId);
  });

  itOnSqliteOnly(kind)('documents the 409 of an in-flight Idempotency-Key on both submit endpoints', async () => {
    const docs = (await gw.http.get('/docs-json').expect(200)).body;
    for (const path of ['/v1/videos', '/v1/video/generations']) {
      expect(docs.paths[path].post.responses['409'].description).toMatch(/in flight/);
    }
  });

  describe.each([
    ['/v1/videos', 'default', { model: 'alpha/v5', prompt: 'refused body' }],
    ['/v1/video/generations', 'refuse', betaBody('refused body')],
  ])('Idempotency-Key on %s', (path, group, body) => {
    const refusals = () => (path === '/v1/videos' ? alpha.calls('generate').length : refuser.submits.length);

    it('20 concurrent replays of a body the provider refuses: only 400 or 409, never a task id; every charge is one refusal and is refunded; then the key is free', async () => {
      const { userId, key } = await gw.createCustomer({ quota: QUOTA, group });
      if (path === '/v1/videos') alpha.inject('generate', { errCode: 400017, message: 'invalid parameter' });
      const sentBefore = refusals();
      const answers = await Promise.all(Array.from({ length: 20 }, () => start(post(path, key, body, 'refused-20'))));

      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status !== 400 && status !== 409)).toEqual([]);
      expect(statuses).toContain(400);
      for (const res of answers.filter((answer) => answer.status === 409)) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        if (path === '/v1/videos')
          expect(res.body.error).toMatchObject({ code: 'conflict', param: 'Idempotency-Key', type: 'invalid_request_error' });
        else expect(res.body).toEqual({ code: 'conflict', message: expect.any(String), data: null });
      }
      expect(await visibleTasks(key)).toEqual([]);
      const { consume, refund, hold, release } = await ledger(userId);
      const refused = statuses.filter((status) => status === 400).length;
      // Each hold belongs to exactly one attempt the provider refused and the client was told about; none is a charge.
      expect([consume, refund]).toEqual([[], []]);
      expect(hold).toHaveLength(refused);
      expect(refusals() - sentBefore).toBe(refused);
      expect(release.map((log) => log.task_id).sort()).toEqual(hold.map((log) => log.task_id).sort());
      expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });

      // Refused means the key is free: once the provider takes the body, the same key starts a task.
      if (path === '/v1/videos') alpha.clearFaults();
      else refuser.answer = 'forward';
      try {
        const accepted = await post(path, key, body, 'refused-20').expect(200);
        const again = await post(path, key, body, 'refused-20').expect(200);
        expect(again.body.id).toBe(accepted.body.id);
        await getVideo(key, accepted.body.id).expect(200);
      } finally {
        refuser.answer = 'refuse';
      }
    });

    it('replays while the first request is in flight: 409 + Retry-After in the surface shape (never a 404-ing id), then the first task once it is accepted, charged and sent once', async () => {
      const { userId, key } = await gw.createCustomer({ quota: QUOTA, group: path === '/v1/videos' ? 'default' : 'late' });
      const accepted = path === '/v1/videos' ? { model: 'alpha/v5', prompt: 'in flight' } : betaBody('in flight');
      // The provider holds the first submit until the replays have their answers, or for 1.5 s at most
      // (well within the 3 s submit deadline, however slow the machine).
      let releasedAt = 0;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve)).then(() => void (releasedAt = Date.now()));
      const cap = setTimeout(release, 1500);
      if (path === '/v1/videos') alpha.inject('generate', { until: held }, 1);
      else late.hold = held;
      const sent = () => (path === '/v1/videos' ? alpha.calls('generate').length : late.submits.length);
      const sentBefore = sent();
      const first = start(post(path, key, accepted, 'in-flight-1'));
      const replay = () => start(post(path, key, accepted, 'in-flight-1')).then((res) => ({ res, answeredAt: Date.now() }));
      let answered: Array<{ res: Response; answeredAt: number }>;
      try {
        await recorded(userId);
        answered = [await replay()];
        answered.push(...(await Promise.all(Array.from({ length: 20 }, replay))));
      } finally {
        release();
        clearTimeout(cap);
        late.hold = undefined;
      }
      const firstRes = await first;
      const replays = answered.map((entry) => entry.res);

      expect(firstRes.status).toBe(200);
      // Every replay answered while the provider still held the first submit was a 409 (on an idle machine, all 21).
      const whileHeld = answered.filter((entry) => entry.answeredAt < (releasedAt || Infinity));
      expect(whileHeld.length).toBeGreaterThanOrEqual(1);
      expect(whileHeld.map((entry) => entry.res.status)).toEqual(whileHeld.map(() => 409));
      for (const res of replays) {
        // A replay may only ever name the first task once it is visible.
        if (res.status === 200) {
          expect(res.body.id).toBe(firstRes.body.id);
          continue;
        }
        expect(res.status).toBe(409);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        if (path === '/v1/videos') expect(res.body.error).toMatchObject({ code: 'conflict', param: 'Idempotency-Key' });
        else expect(res.body).toEqual({ code: 'conflict', message: expect.any(String), data: null });
      }
      const after = await post(path, key, accepted, 'in-flight-1').expect(200);
      expect(after.body.id).toBe(firstRes.body.id);
      await getVideo(key, firstRes.body.id).expect(200);
      expect(sent() - sentBefore).toBe(1);
      const { consume, refund } = await ledger(userId);
      expect(consume.map((log) => log.task_id)).toEqual([firstRes.body.id]);
      expect(refund).toEqual([]);
    });
  });
});
