import type { Browser } from 'playwright-core';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { binaryBody } from './support/alpha-emulator';
import { BrowserSession, describeWithBrowser, expectText, launchBrowser, openPage, realErrors, signInByRequest } from './support/browser';
import {
  EPHEMERAL_FAMILY,
  EPHEMERAL_MODEL,
  EPHEMERAL_OUTPUT_LIFETIME_MS,
  EphemeralStep,
  EphemeralUpstream,
  startEphemeralUpstream,
} from './support/ephemeral-family';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { startVideoStore, TestVideoStore } from './support/s3-server';
import { describeEachDatabase, queryDatabase } from './support/test-databases';
import { until } from './support/until';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);
const SIGNED_LINK = /^http:\/\/127\.0\.0\.1:\d+(\/v1\/videos\/task_[A-Za-z0-9]+\/content\?expires=\d+&signature=[0-9a-f]{64})$/;

/**
 * Short-lived outputs and the provider's own cost, with a family registered for the test (its provider
 * keeps a finished video five seconds, then answers 404, and reports credits and USD ticks), on every
 * database: the video is archived as soon as the task ends and served from the store after its link
 * died; without a copy it is a 410 `video_expired` everywhere; the reported cost reaches the admin task
 * detail and the dashboard's per-channel sum, never a customer.
 */
describeEachDatabase('short-lived outputs and provider usage', (kind) => {
  let gw: TestGateway;
  let upstream: EphemeralUpstream;
  let store: TestVideoStore;
  let key = '';
  let userId = 0;
  let channelId = 0;
  let cookie = '';
  const created: string[] = [];

  beforeAll(async () => {
    upstream = await startEphemeralUpstream(SAMPLE);
    store = await startVideoStore('file');
    // A long interval: no scheduled round runs during the suite (the tests sync by hand), but the job
    // is on, so a task's end wakes the archiving at once.
    gw = await startGateway(kind, { TASK_SYNC_INTERVAL_MS: '600000', WEBHOOK_DELIVERY_INTERVAL_MS: '0', ...store.env }, undefined, {
      extraFamilies: [EPHEMERAL_FAMILY],
    });
    const clock = gw.clock;
    upstream.now = () => clock.now();
    channelId = await gw.createChannel(upstream.channelBody());
    const username = `eph_${kind}_${process.pid}`;
    const user = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota: 10_000_000 }).expect(201);
    userId = user.body.id;
    key = (await gw.admin.post(`/api/admin/users/${userId}/keys`, { name: 'k' }).expect(201)).body.key;
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    cookie = String(session.headers['set-cookie'][0]).split(';')[0];
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
    await store?.close();
  });

  const get = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`).buffer(true).parse(binaryBody);
  const archiveState = async (taskId: string) =>
    (
      await queryDatabase<{ status: string | null; failures: number; error: string | null; expires_at: string | number | null }>(
        gw.database,
        `SELECT a.status, a.failures, a.error, a.expires_at FROM tasks t JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
      )
    )[0];

  /** A task of the test family, polled until its script ends (one sync a second of test clock). */
  async function runTask(steps: EphemeralStep[], submitCredits?: number, polls = steps.length): Promise<string> {
    upstream.scriptNext(steps, submitCredits);
    const submitted = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: EPHEMERAL_MODEL, prompt: 'a comet' });
    expect(submitted.status).toBe(200);
    created.push(submitted.body.id);
    for (let i = 0; i < polls; i++) await pollOnce();
    return submitted.body.id;
  }

  async function pollOnce(): Promise<void> {
    gw.clock.advance(1_100);
    await gw.sync();
  }

  it('archives a short-lived output as soon as its task ends, and serves it byte for byte from the store once its link has died', async () => {
    const id = await runTask([{ state: 'done' }]);
    const [{ finish_time: finishTime }] = await queryDatabase<{ finish_time: string | number }>(
      gw.database,
      `SELECT finish_time FROM tasks WHERE task_id = '${id}'`,
    );
    // No archive round was run by hand: the task's end woke the job.
    await until('the archive', () => archiveState(id), { done: (archive) => archive?.status === 'archived' });
    expect(Number((await archiveState(id)).expires_at)).toBe(Number(finishTime) + EPHEMERAL_OUTPUT_LIFETIME_MS);

    // The provider's link dies.
    gw.clock.advance(EPHEMERAL_OUTPUT_LIFETIME_MS + 1_000);
    const [{ result_url: providerUrl }] = await queryDatabase<{ result_url: string }>(
      gw.database,
      `SELECT result_url FROM tasks WHERE task_id = '${id}'`,
    );
    const dead = await fetch(providerUrl);
    expect(dead.status).toBe(404);
    const downloads = upstream.fileCalls().length;

    const whole = await get(`/v1/videos/${id}/content`).expect(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(Buffer.compare(whole.body, SAMPLE)).toBe(0);
    const part = await get(`/v1/videos/${id}/content`).set('Range', 'bytes=10-109').expect(206);
    expect(Buffer.compare(part.body, SAMPLE.subarray(10, 110))).toBe(0);
    // The signed links of both forms, the console's player and the admin's.
    const flat = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    const unified = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    for (const link of [flat.metadata.url, unified.data.result_url]) {
      const played = await gw.http.get(SIGNED_LINK.exec(link)![1]).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(played.body, SAMPLE)).toBe(0);
    }
    const console = await gw.http.get(`/console/api/tasks/${id}/content`).set('Cookie', cookie).buffer(true).parse(binaryBody).expect(200);
    expect(Buffer.compare(console.body, SAMPLE)).toBe(0);
    await gw.admin.get(`/api/admin/tasks/${id}/content`).buffer(true).parse(binaryBody).expect(200);
    await get(`/v1/videos/${id}/content?variant=thumbnail`).expect(200);
    // All from the store: the provider was not asked again.
    expect(upstream.fileCalls().length).toBe(downloads);
    const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    expect(detail).toMatchObject({ archive_status: 'archived', video_expired: false, has_video: true });
    expect(detail.video_expires_at).toBe(Math.floor((Number(finishTime) + EPHEMERAL_OUTPUT_LIFETIME_MS) / 1000));
  });

  it('with the store failing, the video plays from the provider until its link dies, then every content route is 410 video_expired and the task says so', async () => {
    // The store cannot write: its temporary folder is a file now.
    const tmp = join(store.dir!, 'tmp');
    rmSync(tmp, { recursive: true, force: true });
    writeFileSync(tmp, 'not a folder');
    try {
      const id = await runTask([{ state: 'running' }, { state: 'done' }]);
      await until('the failed archive try', () => archiveState(id), { done: (archive) => archive?.failures >= 1 });
      expect((await archiveState(id)).status).toBe('pending');
      // Before its expiry the provider still serves it.
      const early = await get(`/v1/videos/${id}/content`).expect(200);
      expect(Buffer.compare(early.body, SAMPLE)).toBe(0);

      gw.clock.advance(EPHEMERAL_OUTPUT_LIFETIME_MS + 1_000);
      // The archive's next try (after its back-off), past the link's death, is its last: the task completes, charged as
      // asked (nothing to read).
      gw.clock.advance(60_000);
      // Made here, or by the job's own run if that came first (on a loaded machine it may).
      await gw.app.get(VideoArchiveJob).archiveDueVideos();
      await until("the archive's last try", () => archiveState(id), { done: (archive) => archive?.status === 'failed' });
      const downloads = upstream.fileCalls().length;
      const flat = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      const unified = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      expect(flat.status).toBe('completed');
      const refused = await gw.http.get(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${key}`).expect(410);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.body.error).toMatchObject({ code: 'video_expired', type: 'invalid_request_error' });
      expect(refused.body.error.message).toContain('no longer available');
      expect(refused.body.error.message).not.toContain('expired.</body>');
      await gw.http.head(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${key}`).expect(410);
      await gw.http.get(`/v1/videos/${id}/content?variant=thumbnail`).set('Authorization', `Bearer ${key}`).expect(410);
      for (const link of [flat.metadata.url, unified.data.result_url]) {
        const answer = await gw.http.get(SIGNED_LINK.exec(link)![1]).redirects(0).expect(410);
        expect(answer.headers.location).toBeUndefined();
        expect(answer.body.error.code).toBe('video_expired');
      }
      expect((await gw.http.get(`/console/api/tasks/${id}/content`).set('Cookie', cookie).expect(410)).body.error.code).toBe(
        'video_expired',
      );
      expect((await gw.admin.get(`/api/admin/tasks/${id}/content`).expect(410)).body.error.code).toBe('video_expired');
      // Answered without asking the provider: its error page never reaches anyone.
      expect(upstream.fileCalls().length).toBe(downloads);

      // The next archive try finds the link dead: no more tries.
      gw.clock.advance(10 * 60_000);
      await gw.app.get(VideoArchiveJob).archiveDueVideos();
      expect(await archiveState(id)).toMatchObject({
        status: 'failed',
        error: "the provider's link to the video expired before the gateway could keep a copy",
      });
      const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
      expect(detail).toMatchObject({ status: 'SUCCESS', video_expired: true, has_video: false, archive_status: 'failed' });
      const listed = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}&page_size=100`).expect(200)).body.data.find(
        (task: { task_id: string }) => task.task_id === id,
      );
      expect(listed).toMatchObject({ video_expired: true, has_video: false });
      const mine = (await gw.http.get(`/console/api/tasks/${id}`).set('Cookie', cookie).expect(200)).body;
      expect(mine).toMatchObject({ status: 'completed', video_expired: true, has_video: false });
    } finally {
      rmSync(tmp, { force: true });
    }
  });

  it.each([['404s', 'dead'] as const, ['redirects to a dead link', 'redirect-dead'] as const])(
    'a video the provider says is done but whose link %s from the start fails and is refunded once, whatever the retries',
    async (_what, link) => {
      const before = await gw.balance(userId);
      const id = await runTask([{ state: 'done', link }]);
      await until('the verdict', () => archiveState(id), { done: (archive) => archive?.status === 'failed' });
      expect((await archiveState(id)).error).toBe("generation failed: the provider's link to the video served no video");
      // More rounds, later, change nothing: one refund.
      gw.clock.advance(10 * 60_000);
      await gw.app.get(VideoArchiveJob).archiveDueVideos();
      const flat = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      expect(flat).toMatchObject({
        status: 'failed',
        error: { code: 'generation_failed', message: "generation failed: the provider's link to the video served no video" },
      });
      const unified = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      expect(unified.data).toMatchObject({ status: 'FAILURE', result_url: '' });
      expect((await gw.http.get(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${key}`)).status).toBe(409);
      expect(await gw.balance(userId)).toEqual(before);
      const ledger = (await gw.admin.get(`/api/admin/logs?task_id=${id}`).expect(200)).body.data as Array<{ type: string; quota: number }>;
      expect(ledger.map((row) => row.type).sort()).toEqual(['consume', 'refund']);
      expect(ledger.reduce((sum, row) => sum + row.quota, 0)).toBe(0);
      const mine = (await gw.http.get(`/console/api/tasks/${id}`).set('Cookie', cookie).expect(200)).body;
      expect(mine).toMatchObject({ status: 'failed', has_video: false });
    },
  );

  it("keeps the provider's last reported cost on the task: the admin task detail shows it, the dashboard sums it per channel beside what customers paid; customers never see it", async () => {
    const detail = async (id: string) => (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    // Credits at submit, then a higher figure once done: the last one stands.
    const credits = await runTask([{ state: 'running' }, { state: 'done', credits: 120 }], 40, 0);
    expect(await detail(credits)).toMatchObject({
      status: 'NOT_START',
      provider_usage: { unit: 'credits', amount: 40, usd_estimate: null },
    });
    await pollOnce();
    await pollOnce();
    // USD ticks reported while running (a poll that changes nothing else), then the final figure.
    const ticks = await runTask(
      [{ state: 'running' }, { state: 'running', ticks: 100_000_000 }, { state: 'done', ticks: 500_000_000 }],
      undefined,
      2,
    );
    expect(await detail(ticks)).toMatchObject({
      status: 'IN_PROGRESS',
      provider_usage: { unit: 'usd_ticks', amount: 100_000_000, usd_estimate: 0.01 },
    });
    await pollOnce();
    // A failed task: the provider still reports its cost; the customer is refunded.
    const failed = await runTask([{ state: 'failed', credits: 30 }], 30);

    expect((await detail(credits)).provider_usage).toEqual({ unit: 'credits', amount: 120, usd_estimate: null });
    expect((await detail(ticks)).provider_usage).toEqual({ unit: 'usd_ticks', amount: 500_000_000, usd_estimate: 0.05 });
    expect(await detail(failed)).toMatchObject({ status: 'FAILURE', provider_usage: { unit: 'credits', amount: 30, usd_estimate: null } });

    // A customer sees none of it: not in either form, not in the raw record, not in the console.
    for (const id of [credits, ticks, failed]) {
      const seen = [
        (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body,
        (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body,
        (await gw.http.get(`/console/api/tasks/${id}`).set('Cookie', cookie).expect(200)).body,
      ];
      for (const body of seen) expect(JSON.stringify(body)).not.toMatch(/provider_usage|credits|cost_in_usd_ticks|usd_ticks/);
    }
    const unified = (await gw.http.get(`/v1/video/generations/${ticks}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    expect(unified.data.data).toMatchObject({ id: expect.any(String), state: 'done', usage: {} });

    // The dashboard: every task of the suite ran on the one channel.
    const tasks = await Promise.all(created.map(detail));
    const paid = tasks.filter((task) => task.status !== 'FAILURE').reduce((sum, task) => sum + task.quota, 0);
    const usage: Record<string, number> = {};
    for (const task of tasks)
      if (task.provider_usage) usage[task.provider_usage.unit] = (usage[task.provider_usage.unit] ?? 0) + task.provider_usage.amount;
    expect(usage).toEqual({ credits: 150, usd_ticks: 500_000_000 });
    const dashboard = (await gw.admin.get('/api/admin/dashboard?range=24h').expect(200)).body;
    const row = dashboard.by_channel.find((channel: { channel_id: number }) => channel.channel_id === channelId);
    expect(row).toMatchObject({
      total: created.length,
      // The cost test's failed task, and the two whose link never served the video.
      failure: tasks.filter((task) => task.status === 'FAILURE').length,
      net_charged: paid,
      provider_usage: usage,
      provider_usage_tasks: 3,
      provider_usd: 0.05,
    });
    expect(tasks.filter((task) => task.status === 'FAILURE')).toHaveLength(3);
    expect(paid).toBeGreaterThan(0);
    // What customers paid there is what the ledger says they paid for those tasks.
    const ledger = (await gw.admin.get(`/api/admin/logs?user_id=${userId}&page_size=100`).expect(200)).body.data as Array<{
      type: string;
      quota: number;
    }>;
    expect(
      -ledger.filter((entry) => entry.type === 'consume' || entry.type === 'refund').reduce((sum, entry) => sum + entry.quota, 0),
    ).toBe(paid);
  });
});

/**
 * The console, in both languages: the dashboard's channel table shows what customers paid beside the
 * provider's reported cost, the admin's drawer the task's cost, and a customer's drawer says that an
 * expired video is gone instead of offering a player (no store here: nothing is ever archived).
 */
describeWithBrowser('short-lived outputs and provider usage in the console', () => {
  let gw: TestGateway;
  let upstream: EphemeralUpstream;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const customer = { username: 'eph_console', password: 'pass-word-1' };
  let taskId = '';

  async function open(lang: string, credentials: { admin_token: string } | typeof customer): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, { prefix: `usage-${lang}`, viewport: { width: 1440, height: 900 } });
    sessions.push(session);
    await session.context.addInitScript((l) => localStorage.setItem('console.lang', l), lang);
    await signInByRequest(session, credentials);
    return session;
  }

  beforeAll(async () => {
    upstream = await startEphemeralUpstream(SAMPLE);
    [gw, browser] = await Promise.all([
      startGateway('sqlite', { VIDEO_STORE: 'none' }, undefined, { extraFamilies: [EPHEMERAL_FAMILY] }),
      launchBrowser(),
    ]);
    const clock = gw.clock;
    upstream.now = () => clock.now();
    await gw.createChannel(upstream.channelBody('ephemeral-main'));
    const user = await gw.admin.post('/api/admin/users', { ...customer, quota: 1_000_000 }).expect(201);
    const key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'k' }).expect(201)).body.key;
    upstream.scriptNext([{ state: 'done', credits: 120 }]);
    taskId = (
      await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: EPHEMERAL_MODEL, prompt: 'a comet' }).expect(200)
    ).body.id;
    gw.clock.advance(1_100);
    await gw.sync();
    gw.clock.advance(EPHEMERAL_OUTPUT_LIFETIME_MS + 1_000);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
    await upstream?.close();
  });

  it.each([
    ['en', /Paid \(net\)/, /Provider usage/, /120 credits/],
    ['zh-CN', /实收（净额）/, /服务商用量/, /120 积分/],
  ])(
    'shows what customers paid beside the provider usage on the dashboard, and that usage in the admin drawer (%s)',
    async (lang, paid, cost, credits) => {
      const session = await open(lang, { admin_token: ADMIN_TOKEN });
      const { page } = session;
      await page.goto('/console');
      const table = page.locator('#channel-card');
      await expectText(table, paid);
      await expectText(table, cost);
      await expectText(table.locator('[data-provider-cost="credits=120"]'), credits);
      await session.screenshot('dashboard');
      await page.goto(`/console#/admin/tasks?task=${taskId}`);
      await expectText(page.locator('dialog [data-fact="provider-usage"]'), credits);
      expect(realErrors(session)).toEqual([]);
    },
  );

  it.each([
    ['en', /its link at the provider expired/],
    ['zh-CN', /服务商的链接已过期/],
  ])("says in a customer's drawer that the expired video is gone, with no player (%s)", async (lang, note) => {
    const session = await open(lang, customer);
    const { page } = session;
    await page.goto(`/console#/tasks?task=${taskId}`);
    await expectText(page.locator('dialog [data-video-expired]'), note);
    expect(await page.locator('dialog video').count()).toBe(0);
    expect(realErrors(session)).toEqual([]);
  });
});
