import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { WebhookEventPublisher } from '../src/webhooks/webhook-event-publisher';
import { GammaEmulatorServer } from './support/gamma-emulator';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeEachDatabase } from './support/test-databases';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

const QUOTA = 10_000_000;
const GAMMA_TASK = { model: 'gamma-2-0', prompt: 'a paper boat on a pond', metadata: { resolution: '480p' } };
const RUNWAY_TASK = { model: 'gen4.5', prompt: 'waves', seconds: '6', size: '720x1280' };

/**
 * A cancel asks the provider first (issue 35, finding 1): the providers finish tasks while the
 * gateway is not polling, and Runway's and family C's cancel of a finished task deletes it. So a
 * task its provider has finished ends as it finished (a 409 naming that end), and the provider is
 * sent the cancel only while it still runs the task in a state it can stop.
 */
describeEachDatabase('task cancel: the provider state decides', (kind) => {
  let gw: TestGateway;
  let gamma: GammaEmulatorServer;
  let runway: RunwayEmulatorServer;
  let customer: { userId: number; key: string };
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ gw, fake: gamma } = await startGatewayWithGammaEmulator(kind, { env: { WEBHOOK_DELIVERY_INTERVAL_MS: '0' } }));
    runway = await startRunwayEmulator();
    await gw.createChannel({ name: 'runway', platform: 'runway', base_url: runway.url, api_key: runway.apiKey, models: ['gen4.5'] });
    customer = await gw.createCustomer({ quota: QUOTA });
    receiver = await startWebhookReceiver();
    await as().post('/v1/webhooks').send({ url: receiver.url }).expect(201);
  });
  afterAll(async () => {
    await gw?.close();
    await gamma?.close();
    await runway?.close();
    await receiver?.stop();
  });

  const as = () => ({
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${customer.key}`),
    post: (path: string) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`),
  });
  const submitRunway = async () => {
    const res = await as().post('/v1/videos').send(RUNWAY_TASK).expect(200);
    return { taskId: res.body.id as string, upstreamId: runway.taskIds().at(-1)! };
  };
  const submitGamma = async () => {
    const res = await as().post('/v1/video/generations').send(GAMMA_TASK).expect(200);
    return { taskId: res.body.id as string, upstreamId: gamma.taskIds().at(-1)! };
  };
  const flatOf = async (taskId: string) => (await as().get(`/v1/videos/${taskId}`).expect(200)).body;
  const ledgerOf = async (taskId: string) => {
    const logs = (await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&page_size=200`).expect(200)).body.data as Array<{
      task_id: string | null;
      type: string;
    }>;
    return logs
      .filter((log) => log.task_id === taskId)
      .map((log) => log.type)
      .sort();
  };
  const eventsFor = async (taskId: string) => {
    await gw.app.get(WebhookEventPublisher).publishDueEvents();
    await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
    return receiver.received.filter((event) => event.json?.data?.id === taskId).map((event) => event.json?.type);
  };
  const pollUpstream = async () => {
    gw.clock.advance(10_000);
    await gw.sync();
  };

  it('Runway finished while the gateway still shows it running: 409 saying it is finishing (in progress, as its answer says), no DELETE, the video archived and delivered, charged once', async () => {
    const before = await gw.balance(customer.userId);
    runway.scriptNext(['RUNNING']);
    const { taskId, upstreamId } = await submitRunway();
    await pollUpstream();
    expect((await flatOf(taskId)).status).toBe('in_progress');
    await runway.finish(upstreamId);

    const res = await as().post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('is finishing') });
    expect(runway.deletes()).toHaveLength(0);

    // Done at the provider; completed once its video is stored and settled. Until then a cancel says the same.
    expect(await flatOf(taskId)).toMatchObject({ status: 'in_progress', progress: 99 });
    const again = await as().post(`/v1/video/generations/${taskId}/cancel`).expect(409);
    expect(again.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('is finishing') });
    expect(await gw.app.get(VideoArchiveJob).archiveDueVideos()).toBe(1);
    expect(await flatOf(taskId)).toMatchObject({ status: 'completed', progress: 100 });
    const content = await as().get(`/v1/videos/${taskId}/content`).buffer(true).expect(200);
    expect(Buffer.compare(content.body as Buffer, runway.videoBytes)).toBe(0);
    expect(await ledgerOf(taskId)).toEqual(['consume']);
    const after = await gw.balance(customer.userId);
    expect(before.quota - after.quota).toBe(after.used_quota - before.used_quota);
    expect(after.used_quota).toBeGreaterThan(before.used_quota);
    expect(await eventsFor(taskId)).toEqual(['video.completed']);

    // On the unified surface the same task's cancel names the status in its words.
    const unified = await as().post(`/v1/video/generations/${taskId}/cancel`).expect(409);
    expect(unified.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('(status: SUCCESS)') });
  });

  it('Runway failed upstream while the gateway was not polling: 409 naming `failed`, refunded once by the failure, no DELETE', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await submitRunway();
    await runway.finish(upstreamId, { status: 'FAILED', failureCode: 'INTERNAL' });

    const res = await as().post(`/v1/video/generations/${taskId}/cancel`).expect(409);
    expect(res.body).toMatchObject({ code: 'conflict', message: expect.stringContaining('(status: FAILURE)') });
    expect(runway.deletes()).toHaveLength(0);
    expect((await flatOf(taskId)).error).toMatchObject({ code: 'generation_failed' });
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await ledgerOf(taskId)).toEqual(['consume', 'refund']);
  });

  it('Runway still running: the DELETE is sent, the task cancelled and refunded once', async () => {
    const before = await gw.balance(customer.userId);
    runway.scriptNext(['RUNNING']);
    const { taskId, upstreamId } = await submitRunway();
    const res = await as().post(`/v1/videos/${taskId}/cancel`).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'cancelled', message: 'cancelled by the client' } });
    expect(runway.deletes().map((request) => request.path)).toEqual([`/v1/tasks/${upstreamId}`]);
    await pollUpstream();
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await ledgerOf(taskId)).toEqual(['consume', 'refund']);
  });

  it('family C finished while the gateway still shows it queued: 409 saying it is finishing, no DELETE, the provider keeps its task, charged once', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await submitGamma();
    expect((await flatOf(taskId)).status).toBe('queued');
    await gamma.setTask(upstreamId, { status: 'succeeded' });
    const cancelsBefore = gamma.cancels.length;

    const res = await as().post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('is finishing') });
    expect(gamma.cancels).toHaveLength(cancelsBefore);
    expect(await gamma.taskStatus(upstreamId)).toBe('succeeded');
    // Completed once its video is stored and settled.
    expect(await gw.app.get(VideoArchiveJob).archiveDueVideos()).toBe(1);
    expect((await flatOf(taskId)).status).toBe('completed');
    expect(await ledgerOf(taskId)).toEqual(['consume']);
    expect((await gw.balance(customer.userId)).quota).toBeLessThan(before.quota);
    expect(await eventsFor(taskId)).toEqual(['video.completed']);
  });

  it('family C refuses the cancel (it started meanwhile): 409 cancel_not_supported, the task follows the provider and is charged once', async () => {
    const { taskId, upstreamId } = await submitGamma();
    gamma.failNext('cancel', 400, 'InvalidParameter', 'a running task cannot be cancelled');
    const res = await as().post(`/v1/videos/${taskId}/cancel`).expect(409);
    expect(res.body.error).toMatchObject({ code: 'cancel_not_supported' });
    expect(JSON.stringify(res.body)).not.toContain('a running task');
    expect(gamma.cancels.at(-1)!.path.endsWith(upstreamId)).toBe(true);

    await gamma.setTask(upstreamId, { status: 'succeeded' });
    await pollUpstream();
    expect((await flatOf(taskId)).status).toBe('completed');
    expect(await ledgerOf(taskId)).toEqual(['consume']);
  });

  it('a provider that cannot be read: 503 with Retry-After, nothing sent, nothing changed; the retry cancels', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await submitGamma();
    const cancelsBefore = gamma.cancels.length;
    gamma.failNext('query', 500, 'InternalServiceError', 'internal error at http://10.0.0.1');
    const res = await as().post(`/v1/videos/${taskId}/cancel`).expect(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.1');
    expect(gamma.cancels).toHaveLength(cancelsBefore);
    expect((await flatOf(taskId)).status).toBe('queued');
    expect(await ledgerOf(taskId)).toEqual(['consume']);

    await as().post(`/v1/videos/${taskId}/cancel`).expect(200);
    expect(await gamma.taskStatus(upstreamId)).toBe('cancelled');
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await ledgerOf(taskId)).toEqual(['consume', 'refund']);
  });
});
