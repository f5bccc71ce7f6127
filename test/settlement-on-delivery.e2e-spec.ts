import { readFileSync } from 'node:fs';
import { shapedSampleVideo } from '../src/families/simulator-shared/shaped-sample';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { TaskSyncService } from '../src/tasks/task-sync.service';
import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';
import { eventsFor, startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

/** An OpenAI-compatible model names its resolutions as frame sizes. */
const PER_SECOND = { '854x480': 500, '1280x720': 1_000 };

/**
 * Billing on what was delivered, end to end: a provider (the OpenAI-compatible emulator) serves a real
 * clip of a chosen shape; the gateway stores it, reads its container and settles the task on it: one
 * refund row for the difference at most, `usage` on both surfaces, the ledger equal to the balance.
 */
describeEachDatabase('settlement on the delivered video', (kind) => {
  let gw: TestGateway;
  let fake: OpenAiEmulatorServer;
  let customer: { userId: number; key: string };
  let receiver: WebhookReceiver;
  const taskIds: string[] = [];
  const clip = async (seconds: number, width: number, height: number) =>
    readFileSync(await shapedSampleVideo({ seconds, width, height, audio: false }));

  beforeAll(async () => {
    fake = await startOpenAiEmulator();
    gw = await startGateway(kind);
    await gw.admin
      .post('/api/admin/models', {
        id: 'studio-clip',
        modes: ['text-to-video'],
        durations: { min: 1, max: 20 },
        default_duration: 4,
        resolutions: Object.keys(PER_SECOND),
        aspect_ratios: [],
        audio: 'none',
        prices: Object.entries(PER_SECOND).map(([resolution, price]) => ({ resolution, unit: 'second', price })),
        routes: [{ platform: 'openai', upstream_model: 'studio-clip' }],
      })
      .expect(201);
    await gw.createChannel({
      name: 'compatible',
      platform: 'openai',
      base_url: `${fake.url}/v1`,
      api_key: fake.apiKey,
      models: ['studio-clip'],
    });
    customer = await gw.createCustomer({ quota: 1_000_000 });
    receiver = await startWebhookReceiver();
    await gw.http.post('/v1/webhooks').set('Authorization', `Bearer ${customer.key}`).send({ url: receiver.url }).expect(201);
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await receiver?.stop();
  });

  /** Submits, lets the provider finish, archives: the task as the customer then sees it on both surfaces, and its ledger. */
  async function delivered(body: object, video: Buffer) {
    fake.serveVideo(video);
    const before = await gw.balance(customer.userId);
    const submitted = await gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send(body);
    expect(submitted.body).toMatchObject({ status: 'queued' });
    const id = submitted.body.id as string;
    taskIds.push(id);
    for (let round = 0; round < 3; round++) {
      gw.clock.advance(6_000);
      await gw.sync();
    }
    await gw.app.get(VideoArchiveJob).archiveDueVideos();
    const flat = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${customer.key}`).expect(200)).body;
    const unified = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${customer.key}`).expect(200)).body;
    const ledger = (await gw.admin.get(`/api/admin/logs?task_id=${id}`).expect(200)).body.data as Array<{
      type: string;
      quota: number;
      content: string;
    }>;
    const after = await gw.balance(customer.userId);
    return { flat, unified, ledger, paid: before.quota - after.quota };
  }

  const refunds = (ledger: Array<{ type: string }>) => ledger.filter((row) => row.type === 'refund');

  it('a shorter video than asked: charged for the seconds delivered, the rest refunded in one row naming both', async () => {
    const { flat, unified, ledger, paid } = await delivered(
      { model: 'studio-clip', prompt: 'a lighthouse', seconds: '4', size: '1280x720' },
      await clip(2, 1280, 720),
    );
    expect(flat).toMatchObject({ status: 'completed', seconds: '4', size: '1280x720' });
    expect(flat.usage).toEqual({
      seconds: 2,
      resolution: '1280x720',
      audio: false,
      quota: 2_000,
      usd: expect.any(Number),
      settled: 'delivered',
    });
    expect(unified.data).toMatchObject({ quota: 4_000, usage: flat.usage });
    expect(paid).toBe(2_000);
    expect(refunds(ledger)).toEqual([expect.objectContaining({ quota: 2_000 })]);
    expect(JSON.stringify(refunds(ledger)[0])).toContain('asked 4s 1280x720 no audio, delivered 2s 1280x720 no audio');
  });

  it('a smaller frame than asked: charged at the delivered resolution', async () => {
    const { flat, paid, ledger } = await delivered(
      { model: 'studio-clip', prompt: 'a harbour', seconds: '4', size: '1280x720' },
      await clip(4, 854, 480),
    );
    expect(flat.usage).toMatchObject({ seconds: 4, resolution: '854x480', quota: 2_000, settled: 'delivered' });
    expect(paid).toBe(2_000);
    expect(refunds(ledger)).toHaveLength(1);
  });

  it('exactly what was asked, or longer: charged as asked, nothing refunded', async () => {
    const exact = await delivered({ model: 'studio-clip', prompt: 'a bay', seconds: '3', size: '1280x720' }, await clip(3, 1280, 720));
    expect(exact.flat.usage).toMatchObject({ seconds: 3, resolution: '1280x720', quota: 3_000, settled: 'delivered' });
    expect(exact.paid).toBe(3_000);
    expect(refunds(exact.ledger)).toEqual([]);
    const longer = await delivered({ model: 'studio-clip', prompt: 'a cove', seconds: '2', size: '1280x720' }, await clip(5, 1280, 720));
    expect(longer.flat.usage).toMatchObject({ seconds: 5, quota: 2_000, settled: 'delivered' });
    expect(longer.paid).toBe(2_000);
  });

  it('completes only once stored and settled: in progress until then, and video.completed carries the final usage', async () => {
    fake.serveVideo(await clip(2, 1280, 720));
    const as = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${customer.key}`).expect(200);
    const submitted = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'studio-clip', prompt: 'a quay', seconds: '4', size: '1280x720' })
      .expect(200);
    const id = submitted.body.id as string;
    taskIds.push(id);
    for (let round = 0; round < 3; round++) {
      gw.clock.advance(6_000);
      await gw.app.get(TaskSyncService).syncDueTasks();
    }
    // The provider is done; the video is not stored yet: no completion, no charge settled, no event.
    expect((await as(`/v1/videos/${id}`)).body).toMatchObject({ status: 'in_progress', progress: 99 });
    expect((await as(`/v1/videos/${id}`)).body.usage).toBeUndefined();
    expect((await as(`/v1/video/generations/${id}`)).body.data).toMatchObject({ status: 'IN_PROGRESS', progress: '99%', result_url: '' });
    await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
    expect(eventsFor(receiver, id)).toEqual([]);

    await gw.app.get(VideoArchiveJob).archiveDueVideos();
    const done = (await as(`/v1/videos/${id}`)).body;
    expect(done).toMatchObject({ status: 'completed', progress: 100, usage: { seconds: 2, quota: 2_000, settled: 'delivered' } });
    await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
    const [event] = eventsFor(receiver, id);
    expect(event.json).toMatchObject({ type: 'video.completed', data: { id, status: 'completed', usage: done.usage } });
  });

  it('bytes that are no video: charged as asked, and it says so', async () => {
    const { flat, paid, ledger } = await delivered(
      { model: 'studio-clip', prompt: 'a reef', seconds: '4', size: '1280x720' },
      fake.videoBytes,
    );
    expect(flat).toMatchObject({ status: 'completed' });
    expect(flat.usage).toMatchObject({ seconds: 4, resolution: '1280x720', quota: 4_000, settled: 'as_asked' });
    expect(paid).toBe(4_000);
    expect(refunds(ledger)).toEqual([]);
  });

  it('settles once: archiving again changes nothing, and the ledger equals the balance', async () => {
    const before = await gw.balance(customer.userId);
    await gw.app.get(VideoArchiveJob).archiveDueVideos();
    expect(await gw.balance(customer.userId)).toEqual(before);
    let moved = 0;
    for (const id of taskIds) {
      const rows = (await gw.admin.get(`/api/admin/logs?task_id=${id}`).expect(200)).body.data as Array<{ type: string; quota: number }>;
      // The ledger's rows are signed: a charge negative, a refund positive.
      for (const row of rows) if (row.type === 'refund' || row.type === 'consume') moved += row.quota;
    }
    expect(before.quota).toBe(1_000_000 + moved);
  });
});
