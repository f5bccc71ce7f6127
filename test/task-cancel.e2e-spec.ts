import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { WebhookEventPublisher } from '../src/webhooks/webhook-event-publisher';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { GammaEmulatorServer } from './support/gamma-emulator';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeEachDatabase, describeOnSqlite, itOnSqliteOnly } from './support/test-databases';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';
import { until } from './support/until';

const QUOTA = 10_000_000;
const GAMMA_TASK = { model: 'gamma-2-0', prompt: 'a paper boat on a pond', metadata: { resolution: '480p' } };
const VIDEO_URL = 'https://cdn.fake-provider.test/video.mp4?sig=abc';

/**
 * Cancelling a task, as a client sees it: what ends (failed, `cancelled`, refunded exactly once,
 * `video.failed` sent), what the provider was asked, and what is refused (409) with nothing changed.
 */
describeEachDatabase('task cancel', (kind) => {
  let gw: TestGateway;
  let gamma: GammaEmulatorServer;
  let alpha: AlphaEmulatorServer;
  let runway: RunwayEmulatorServer;
  let customer: { userId: number; key: string };
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // No store: its videos (VIDEO_URL) are nowhere to fetch, and a task completes with its provider's done.
    ({ gw, fake: gamma } = await startGatewayWithGammaEmulator(kind, { env: { WEBHOOK_DELIVERY_INTERVAL_MS: '0', VIDEO_STORE: 'none' } }));
    alpha = await startAlphaEmulator();
    runway = await startRunwayEmulator();
    await gw.createChannel(alphaChannelBody(alpha));
    await gw.createChannel({ name: 'runway', platform: 'runway', base_url: runway.url, api_key: runway.apiKey, models: ['gen4.5'] });
    customer = await gw.createCustomer({ quota: QUOTA });
    receiver = await startWebhookReceiver();
    await as(customer.key).post('/v1/webhooks').send({ url: receiver.url }).expect(201);
  });
  afterAll(async () => {
    await gw?.close();
    await gamma?.close();
    await alpha?.close();
    await runway?.close();
    await receiver?.stop();
  });

  const as = (key: string) => ({
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string) => gw.http.post(path).set('Authorization', `Bearer ${key}`),
  });
  const submitGamma = async () => {
    const res = await as(customer.key).post('/v1/video/generations').send(GAMMA_TASK).expect(200);
    return { taskId: res.body.id as string, upstreamId: gamma.taskIds().at(-1)! };
  };
  const flatOf = async (taskId: string) => (await as(customer.key).get(`/v1/videos/${taskId}`).expect(200)).body;
  const ledgerOf = async (taskId: string) => {
    const logs = (await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&page_size=200`).expect(200)).body.data as Array<{
      task_id: string | null;
      type: string;
    }>;
    return logs.filter((log) => log.task_id === taskId).map((log) => log.type);
  };
  const deliverWebhooks = async () => {
    await gw.app.get(WebhookEventPublisher).publishDueEvents();
    await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
  };
  const eventsFor = (taskId: string) =>
    receiver.received.filter((event) => event.json?.data?.id === taskId).map((event) => event.json?.type);
  const pollUpstream = async () => {
    gw.clock.advance(10_000);
    await gw.sync();
  };

  it('a family C task still queued upstream: 200 failed with `cancelled`, DELETE sent, refunded exactly once, video.failed sent', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await submitGamma();
    expect((await gw.balance(customer.userId)).quota).toBeLessThan(before.quota);

    const res = await as(customer.key).post(`/v1/video/generations/${taskId}/cancel`).expect(200);
    expect(res.body.data).toMatchObject({ task_id: taskId, status: 'FAILURE', fail_reason: 'cancelled by the client', progress: '100%' });
    expect(gamma.cancels.map((request) => request.path)).toEqual([`/api/v3/contents/generations/tasks/${upstreamId}`]);
    expect(gamma.cancels[0].headers.authorization).toBe(`Bearer ${gamma.apiKey}`);
    expect(await gamma.taskStatus(upstreamId)).toBe('cancelled');

    expect(await flatOf(taskId)).toMatchObject({ status: 'failed', error: { code: 'cancelled', message: 'cancelled by the client' } });
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect((await ledgerOf(taskId)).sort()).toEqual(['consume', 'refund']);

    // A second cancel: the task has ended; nothing more is refunded, the provider is not asked again.
    const again = await as(customer.key).post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(again.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('(status: failed)') });
    await pollUpstream();
    expect(gamma.cancels).toHaveLength(1);
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect((await ledgerOf(taskId)).sort()).toEqual(['consume', 'refund']);

    await deliverWebhooks();
    expect(eventsFor(taskId)).toEqual(['video.failed']);
    expect(receiver.received.find((event) => event.json?.data?.id === taskId)!.json.data).toMatchObject({
      status: 'failed',
      error: { code: 'cancelled' },
    });
  });

  it('two cancels of one task at once, on both surfaces: one 200, one 409, one refund', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId } = await submitGamma();
    const answers = await Promise.all([
      as(customer.key)
        .post(`/v1/videos/${taskId}/cancel`)
        .then((res) => res),
      as(customer.key)
        .post(`/v1/video/generations/${taskId}/cancel`)
        .then((res) => res),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect((await ledgerOf(taskId)).sort()).toEqual(['consume', 'refund']);
  });

  itOnSqliteOnly(kind)(
    'a family C task running upstream: 409 cancel_not_supported on both surfaces, the provider not asked, nothing changed',
    async () => {
      const { taskId, upstreamId } = await submitGamma();
      await gamma.setTask(upstreamId, { status: 'running' });
      await pollUpstream();
      const before = await gw.balance(customer.userId);
      const flat = await as(customer.key).post(`/v1/videos/${taskId}/cancel`).expect(409);
      expect(flat.body.error).toMatchObject({ code: 'cancel_not_supported', type: 'invalid_request_error' });
      const unified = await as(customer.key).post(`/v1/video/generations/${taskId}/cancel`).expect(409);
      expect(unified.body).toMatchObject({ code: 'cancel_not_supported', data: null });
      expect(gamma.cancels.filter((request) => request.path.endsWith(upstreamId))).toHaveLength(0);
      expect((await flatOf(taskId)).status).toBe('in_progress');
      expect(await gw.balance(customer.userId)).toEqual(before);
      expect(await ledgerOf(taskId)).toEqual(['consume']);
    },
  );

  it('a task the provider already runs (the gateway still reads it queued): 409, no DELETE, and the task finishes normally', async () => {
    const { taskId, upstreamId } = await submitGamma();
    await gamma.setTask(upstreamId, { status: 'running' }); // the gateway still reads it queued
    const before = await gw.balance(customer.userId);
    const res = await as(customer.key).post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(res.body.error).toMatchObject({ code: 'cancel_not_supported' });
    expect(JSON.stringify(res.body)).not.toContain(gamma.url);
    expect(gamma.cancels.filter((request) => request.path.endsWith(upstreamId))).toHaveLength(0);
    // The cancel read the provider: the task shows where it is.
    expect((await flatOf(taskId)).status).toBe('in_progress');

    await gamma.setTask(upstreamId, { status: 'succeeded', videoUrl: VIDEO_URL });
    await pollUpstream();
    expect((await flatOf(taskId)).status).toBe('completed');
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await ledgerOf(taskId)).toEqual(['consume']);

    // A finished task: 409 naming its status, in each surface's words.
    const flat = await as(customer.key).post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(flat.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('(status: completed)') });
    const unified = await as(customer.key).post(`/v1/video/generations/${taskId}/cancel`).expect(409);
    expect(unified.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('(status: SUCCESS)') });
    expect(await ledgerOf(taskId)).toEqual(['consume']);
  });

  itOnSqliteOnly(kind)('a family A task the provider has: 409 cancel_not_supported, nothing changed', async () => {
    alpha.scriptNext([5, 5, 1]);
    const submitted = await as(customer.key)
      .post('/v1/videos')
      .send({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' })
      .expect(200);
    const taskId = submitted.body.id as string;
    const before = await gw.balance(customer.userId);
    const res = await as(customer.key).post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(res.body.error).toMatchObject({ code: 'cancel_not_supported', message: `the provider of task ${taskId} cannot cancel it now` });
    expect((await flatOf(taskId)).status).toBe('queued');
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await ledgerOf(taskId)).toEqual(['consume']);
  });

  itOnSqliteOnly(kind)("another account's task: 404 on both surfaces, and the task goes on", async () => {
    const { taskId } = await submitGamma();
    const other = await gw.createCustomer({ quota: QUOTA });
    const flat = await as(other.key).post(`/v1/videos/${taskId}/cancel`).expect(404);
    expect(flat.body.error).toMatchObject({ code: 'not_found' });
    await as(other.key).post(`/v1/video/generations/${taskId}/cancel`).expect(404);
    await as(customer.key).post('/v1/videos/task_doesnotexist/cancel').expect(404);
    expect((await flatOf(taskId)).status).toBe('queued');
    expect(await ledgerOf(taskId)).toEqual(['consume']);
  });

  it('a task the provider has not accepted yet (its submit hangs): cancelled and refunded; the submit then answers it failed', async () => {
    const before = await gw.balance(customer.userId);
    const release = gamma.holdSubmits();
    const submitting = as(customer.key)
      .post('/v1/video/generations')
      .send(GAMMA_TASK)
      .then((res) => res);
    const taskId: string = await until(
      'the task SUBMITTING',
      async () => (await gw.admin.get(`/api/admin/tasks?user_id=${customer.userId}&status=SUBMITTING`).expect(200)).body.data[0]?.task_id,
      { everyMs: 20 },
    );
    const res = await as(customer.key).post(`/v1/videos/${taskId}/cancel`).expect(200);
    expect(res.body).toMatchObject({ id: taskId, status: 'failed', error: { code: 'cancelled', message: 'cancelled by the client' } });
    expect(await gw.balance(customer.userId)).toEqual(before);

    release();
    const answered = await submitting;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: taskId, status: 'failed' });
    // The provider took the job after all: it is asked to drop it.
    const upstreamId = gamma.taskIds().at(-1)!;
    expect(gamma.cancels.at(-1)!.path).toBe(`/api/v3/contents/generations/tasks/${upstreamId}`);
    expect(await gamma.taskStatus(upstreamId)).toBe('cancelled');
    expect((await flatOf(taskId)).error).toEqual({ code: 'cancelled', message: 'cancelled by the client' });
    expect(await gw.balance(customer.userId)).toEqual(before);
    const ledger = await ledgerOf(taskId);
    expect(ledger.filter((type) => type === 'refund' || type === 'release')).toHaveLength(1);
    await deliverWebhooks();
    expect(eventsFor(taskId)).toEqual(['video.failed']);
  });

  it('Runway, on both surfaces: DELETE /v1/tasks/{id} while it runs, failed with `cancelled`, refunded once', async () => {
    const before = await gw.balance(customer.userId);
    runway.scriptNext(['PENDING', 'RUNNING', 'RUNNING', 'SUCCEEDED']);
    const flatTask = await as(customer.key)
      .post('/v1/videos')
      .send({ model: 'gen4.5', prompt: 'waves', seconds: '6', size: '720x1280' })
      .expect(200);
    runway.scriptNext(['RUNNING', 'RUNNING', 'SUCCEEDED']);
    const unifiedTask = await as(customer.key)
      .post('/v1/video/generations')
      .send({ model: 'gen4.5', prompt: 'waves', duration: 5, aspect_ratio: '16:9', resolution: '720p' })
      .expect(200);
    // The second one runs upstream before it is cancelled.
    gw.clock.advance(7_000);
    await gw.sync();
    expect((await flatOf(unifiedTask.body.id)).status).toBe('in_progress');

    const flat = await as(customer.key).post(`/v1/videos/${flatTask.body.id}/cancel`).expect(200);
    expect(flat.body).toMatchObject({ id: flatTask.body.id, status: 'failed', error: { code: 'cancelled' } });
    const unified = await as(customer.key).post(`/v1/video/generations/${unifiedTask.body.id}/cancel`).expect(200);
    expect(unified.body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'cancelled by the client' });
    expect(runway.deletes().map((request) => request.path)).toHaveLength(2);
    expect(runway.deletes().every((request) => request.headers['x-runway-version'] === '2024-11-06')).toBe(true);

    gw.clock.advance(7_000);
    await gw.sync();
    expect(await gw.balance(customer.userId)).toEqual(before);
    for (const id of [flatTask.body.id, unifiedTask.body.id]) expect((await ledgerOf(id)).sort()).toEqual(['consume', 'refund']);
  });

  it("the admin console cancels on the owner's behalf; the drawer's detail says whether a task can be cancelled", async () => {
    const { taskId } = await submitGamma();
    const admin = await gw.admin.get(`/api/admin/tasks/${taskId}`).expect(200);
    expect(admin.body.cancellable).toBe(true);
    const cancelled = await gw.admin.post(`/api/admin/tasks/${taskId}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'FAILURE', failure_reason: 'cancelled by the client', cancellable: false });
    expect(cancelled.body.refund).toMatchObject({ quota: cancelled.body.quota });
    await gw.admin.post(`/api/admin/tasks/${taskId}/cancel`).expect(409);
  });
});

/**
 * A cancel racing the task's own end, with two gateways on one database: the sync of one finds the
 * task finished upstream while the other is asked to cancel it. Exactly one of them wins each time.
 */
describeEachDatabase('task cancel racing the task end on two instances', (kind) => {
  let a: TestGateway;
  let b: TestGateway;
  let gamma: GammaEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    ({ gw: a, fake: gamma } = await startGatewayWithGammaEmulator(kind));
    b = await startGateway(kind, {}, a.database);
    customer = await a.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await gamma?.close();
  });

  it('20 rounds: each task ends either completed (cancel 409) or cancelled and refunded once; the ledger adds up to the balance', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const submitted = await a.http
        .post('/v1/video/generations')
        .set('Authorization', `Bearer ${customer.key}`)
        .send(GAMMA_TASK)
        .expect(200);
      const taskId = submitted.body.id as string;
      await gamma.setTask(gamma.taskIds().at(-1)!, { status: 'succeeded', videoUrl: VIDEO_URL });
      // Both instances keep the same time, as real instances do.
      a.clock.advance(10_000);
      b.clock.advance(10_000);
      // Either side may start first, a few ms apart, so that each may win.
      const later = <T>(start: () => Promise<T>, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(start()), ms));
      const skew = (round % 5) * 5;
      const [, cancel] = await Promise.all([
        later(() => a.sync(), round % 2 ? skew : 0),
        later(
          () =>
            b.http
              .post(`/v1/videos/${taskId}/cancel`)
              .set('Authorization', `Bearer ${customer.key}`)
              .then((res) => res),
          round % 2 ? 0 : skew,
        ),
      ]);
      // Whatever is left (the sync's poll fenced off by a cancel that then lost, say) settles on the next rounds.
      let task = (await a.admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body;
      for (let extra = 0; extra < 5 && !['SUCCESS', 'FAILURE'].includes(task.status); extra++) {
        a.clock.advance(10_000);
        b.clock.advance(10_000);
        await a.sync();
        task = (await a.admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body;
      }
      if (cancel.status === 200) {
        expect(task).toMatchObject({ status: 'FAILURE', failure_reason: 'cancelled by the client', has_video: false });
        expect(task.refund).toMatchObject({ quota: task.quota });
        outcomes.push('cancelled');
      } else {
        expect({ status: cancel.status, code: cancel.body.error?.code }).toEqual({ status: 409, code: 'conflict' });
        expect(task.status).toBe('SUCCESS');
        expect(task.refund).toBeNull();
        outcomes.push('completed');
      }
    }
    const logs = (await a.admin.get(`/api/admin/logs?user_id=${customer.userId}&page_size=200`).expect(200)).body.data as Array<{
      task_id: string | null;
      type: string;
      quota: number;
    }>;
    const user = await a.balance(customer.userId);
    expect(logs.reduce((sum, log) => sum + log.quota, 0)).toBe(user.quota);
    const refunded = logs.filter((log) => log.type === 'refund');
    expect(new Set(refunded.map((log) => log.task_id)).size).toBe(refunded.length);
    expect(refunded).toHaveLength(outcomes.filter((outcome) => outcome === 'cancelled').length);
    const price = -logs.find((log) => log.type === 'consume')!.quota;
    expect(user.used_quota).toBe(outcomes.filter((outcome) => outcome === 'completed').length * price);
    expect(user.quota).toBe(QUOTA - user.used_quota);
  }, 120_000);
});

/** The embedded simulators answer a cancel as their providers do: family C while queued only, Runway while it runs. */
describeOnSqlite('task cancel through the embedded simulator', (kind) => {
  let gw: TestGateway;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => gw?.close());

  const post = (path: string, body?: object) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`).send(body);
  const poll = async (ms: number) => {
    gw.clock.advance(ms);
    await gw.sync();
  };

  it('family C: a queued task is cancelled; a running one is refused with 409 and goes on to its video', async () => {
    const before = await gw.balance(customer.userId);
    const queued = await post('/v1/video/generations', GAMMA_TASK).expect(200);
    // The simulator keeps a task queued for 2 s of the gateway's clock: turned back a little, it is queued however slow this machine is.
    gw.clock.advance(-60_000);
    const cancelled = await post(`/v1/video/generations/${queued.body.id}/cancel`).expect(200);
    gw.clock.advance(60_000);
    expect(cancelled.body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'cancelled by the client' });
    expect(await gw.balance(customer.userId)).toEqual(before);

    const running = await post('/v1/video/generations', GAMMA_TASK).expect(200);
    gw.clock.advance(3_000); // running at the simulator, still queued as the gateway last saw it
    expect((await post(`/v1/videos/${running.body.id}/cancel`).expect(409)).body.error.code).toBe('cancel_not_supported');
    await poll(1_000);
    expect((await post(`/v1/videos/${running.body.id}/cancel`).expect(409)).body.error.code).toBe('cancel_not_supported');
    await poll(10_000);
    const done = await gw.http.get(`/v1/videos/${running.body.id}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
    expect(done.body.status).toBe('completed');
  });

  it('Runway: a running task is cancelled and refunded', async () => {
    const before = await gw.balance(customer.userId);
    const submitted = await post('/v1/videos', { model: 'gen4.5', prompt: 'waves', seconds: '6', size: '720x1280' }).expect(200);
    const cancelled = await post(`/v1/videos/${submitted.body.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'failed', error: { code: 'cancelled', message: 'cancelled by the client' } });
    await poll(10_000);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });
});
