import { readFileSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { APP_CONFIG } from '../src/config/app-config';
import { TaskRetentionJob } from '../src/retention/task-retention.job';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { VideoObjectKeys } from '../src/storage/video-object-keys';
import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { WebhookEventPublisher } from '../src/webhooks/webhook-event-publisher';
import { alphaChannelBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { startVideoStore, TestVideoStore } from './support/s3-server';
import { describeEachDatabase, queryDatabase } from './support/test-databases';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);
/**
 * Long in real time: the test clock is real time plus what a test advances, so a task that ends
 * during the test must not age past it while the test runs on a busy machine (2 s did).
 */
const RETENTION_MS = 10 * 60_000;

for (const storeKind of ['file', 's3'] as const) {
  describeEachDatabase(`TASK_RETENTION (${storeKind} store): old ended tasks go with their video, the ledger stays`, (kind) => {
    let gw: TestGateway;
    let fake: AlphaEmulatorServer;
    let store: TestVideoStore;
    let receiver: WebhookReceiver;
    let key = '';
    let userId = 0;

    beforeAll(async () => {
      fake = await startAlphaEmulator();
      fake.videoBytes = SAMPLE;
      receiver = await startWebhookReceiver();
      // Rounds run by hand (the webhook publisher's too, see video-store.e2e-spec.ts).
      store = await startVideoStore(storeKind, { inProcess: true });
      gw = await startGateway(kind, { TASK_RETENTION: '10m', WEBHOOK_DELIVERY_INTERVAL_MS: '0', ...store.env });
      await gw.createChannel(alphaChannelBody(fake));
      ({ key, userId } = await gw.createCustomer({ quota: 1_000_000 }));
      await gw.http.post('/v1/webhooks').set('Authorization', `Bearer ${key}`).send({ url: receiver.url }).expect(201);
    });
    afterAll(async () => {
      await gw?.close();
      await fake?.close();
      await store?.close();
      await receiver?.stop();
    });

    const objects = () => store.objects();
    /** The task's objects in the store (their keys name no task: they come from the gateway's own naming). */
    const objectsOf = async (taskId: string) => {
      const keys = gw.app.get(VideoObjectKeys);
      const own = [keys.video(taskId), keys.thumbnail(taskId)];
      return (await objects()).filter((name) => own.includes(name));
    };
    const get = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`);
    const submit = async (script: number[]): Promise<string> => {
      fake.scriptNext(script);
      const submitted = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: 'a lighthouse' })
        .expect(200);
      return submitted.body.id as string;
    };
    /** Polls, archives, publishes and delivers everything due. */
    const settle = async () => {
      gw.clock.advance(4000);
      await gw.sync();
      await gw.app.get(VideoArchiveJob).archiveDueVideos();
      await gw.app.get(WebhookEventPublisher).publishDueEvents();
      await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
    };
    const count = async (sql: string) => Number((await queryDatabase<{ n: number | string }>(gw.database, sql))[0].n);
    const ledgerOf = (taskIds: string[]) =>
      queryDatabase<{ task_id: string; type: string; quota: number | string }>(
        gw.database,
        `SELECT task_id, type, quota FROM logs WHERE task_id IN (${taskIds.map((id) => `'${id}'`).join(', ')}) ORDER BY id`,
      );
    const rowsOf = async (taskId: string) => ({
      tasks: await count(`SELECT COUNT(*) AS n FROM tasks WHERE task_id = '${taskId}'`),
      events: await count(`SELECT COUNT(*) AS n FROM task_events e JOIN tasks t ON t.id = e.task_row_id WHERE t.task_id = '${taskId}'`),
      webhookEvents: await count(`SELECT COUNT(*) AS n FROM webhook_events WHERE task_id = '${taskId}'`),
    });

    it('deletes ended tasks past the retention with video, thumbnail, timeline and webhooks; keeps running and young ones and every ledger row', async () => {
      const succeeded = await submit(finishAfter(0));
      const failed = await submit([8]);
      const running = await submit([5]);
      await settle();
      expect((await get(`/v1/videos/${succeeded}`).expect(200)).body.status).toBe('completed');
      expect((await get(`/v1/videos/${failed}`).expect(200)).body.status).toBe('failed');
      expect((await get(`/v1/videos/${running}`).expect(200)).body.status).toBe('in_progress');
      expect(await objectsOf(succeeded)).toHaveLength(2); // the video and its thumbnail
      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
      const oldDeliveries = await count(
        `SELECT COUNT(*) AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.task_id IN ('${succeeded}', '${failed}')`,
      );
      expect(oldDeliveries).toBe(2);
      expect((await rowsOf(succeeded)).events).toBeGreaterThan(0);

      // Past the retention for those; a task that ends now is young.
      gw.clock.advance(RETENTION_MS + 1000);
      const young = await submit(finishAfter(0));
      await settle();
      expect(await objectsOf(young)).toHaveLength(2);

      const ledgerBefore = await ledgerOf([succeeded, failed, running, young]);
      expect(ledgerBefore.length).toBeGreaterThanOrEqual(5); // charges, and the failed task's refund
      const balanceBefore = await gw.balance(userId);

      // The running task and the young one stay; only the two old ended ones go.
      expect(await gw.app.get(TaskRetentionJob).pruneNow()).toBe(2);

      for (const gone of [succeeded, failed]) {
        await get(`/v1/videos/${gone}`).expect(404);
        await get(`/v1/videos/${gone}/content`).expect(404);
        await gw.http.get(`/v1/video/generations/${gone}`).set('Authorization', `Bearer ${key}`).expect(404);
        expect(await rowsOf(gone)).toEqual({ tasks: 0, events: 0, webhookEvents: 0 });
        expect(await objectsOf(gone)).toEqual([]);
      }
      expect(
        await count(`SELECT COUNT(*) AS n FROM webhook_deliveries d LEFT JOIN webhook_events e ON e.id = d.event_id WHERE e.id IS NULL`),
      ).toBe(0);
      expect(await count(`SELECT COUNT(*) AS n FROM video_archives a LEFT JOIN tasks t ON t.id = a.task_row_id WHERE t.id IS NULL`)).toBe(
        0,
      );

      expect((await get(`/v1/videos/${running}`).expect(200)).body.status).toBe('in_progress');
      expect((await get(`/v1/videos/${young}`).expect(200)).body.status).toBe('completed');
      const played = await get(`/v1/videos/${young}/content`).buffer(true).expect(200);
      expect(Buffer.compare(played.body as Buffer, SAMPLE)).toBe(0);
      expect(await objectsOf(young)).toHaveLength(2);

      // Money history is never deleted: the same rows, the same balance.
      expect(await ledgerOf([succeeded, failed, running, young])).toEqual(ledgerBefore);
      expect(await gw.balance(userId)).toEqual(balanceBefore);

      // Operators see it.
      const metrics = (await gw.http.get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/gateway_housekeeping_rows_deleted_total\{table="tasks"\} 2\b/);
      const bytes = Number(/gateway_housekeeping_bytes_deleted_total\{table="tasks"\} (\d+)/.exec(metrics)?.[1]);
      expect(bytes).toBeGreaterThan(SAMPLE.length);

      // Nothing more is due: a second round deletes nothing.
      expect(await gw.app.get(TaskRetentionJob).pruneNow()).toBe(0);
    });

    it('a task the retention hides while its video is still being kept: that archive ends, and the next prune deletes the task and its objects', async () => {
      const taskId = await submit(finishAfter(0));
      gw.clock.advance(4000);
      await gw.syncTasksOnly(); // done at its provider, not stored yet
      await gw.app.get(WebhookEventPublisher).publishDueEvents();
      gw.clock.advance(RETENTION_MS + 60_000);
      const retention = gw.app.get(TaskRetentionJob);
      await retention.pruneNow(); // hidden from its owner; it waits for the archive
      expect((await rowsOf(taskId)).tasks).toBe(1);
      await get(`/v1/videos/${taskId}`).expect(404);
      // The copy is made, then dropped: its task is gone.
      await gw.app.get(VideoArchiveJob).archiveDueVideos();
      const archive = await queryDatabase(
        gw.database,
        `SELECT a.status, a.error FROM video_archives a JOIN tasks t ON t.id = a.task_row_id WHERE t.task_id = '${taskId}'`,
      );
      expect(archive).toEqual([{ status: 'failed', error: expect.stringContaining('deleted') }]);
      expect(await objectsOf(taskId)).toEqual([]);
      gw.clock.advance(gw.app.get(APP_CONFIG).taskLeaseMs + 1000);
      await gw.app.get(WebhookEventPublisher).publishDueEvents();
      await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
      await retention.pruneNow();
      expect((await rowsOf(taskId)).tasks).toBe(0);
      expect(await objectsOf(taskId)).toEqual([]);
    });
  });
}
