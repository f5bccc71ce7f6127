import type { ServerResponse } from 'node:http';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { alphaChannelBody, binaryBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { startVideoStore, TestS3Server, TestVideoStore } from './support/s3-server';
import { describeOnSqlite, queryDatabase } from './support/test-databases';

/** Above one S3 part (8 MiB), so the S3 store has begun a multipart upload when the limit is hit. */
const MAX_BYTES = 12 * 1024 * 1024;
/** What the hostile provider serves: an MP4 box header, then noise, 20 MiB in all. */
const HUGE = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(12), Buffer.alloc(20 * 1024 * 1024 - 24, 7)]);
const CHUNK = 256 * 1024;
const REASON = `video larger than VIDEO_MAX_BYTES (${MAX_BYTES} bytes)`;

/** Resolves once the response can take more, or is gone. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resume) => {
    const go = () => {
      res.off('drain', go).off('close', go);
      resume();
    };
    res.on('drain', go).on('close', go);
  });
}

for (const storeKind of ['file', 's3'] as const) {
  describeOnSqlite(`the video store (${storeKind}): VIDEO_MAX_BYTES`, (kind) => {
    let gw: TestGateway;
    let fake: AlphaEmulatorServer;
    let store: TestVideoStore;
    let s3: TestS3Server | undefined;
    let huge: LoopbackServer;
    let key = '';
    /** How the huge video is served: streamed with its length announced, or without one (chunked); `stall`: headers and one chunk, then nothing. */
    let mode: 'announced' | 'chunked' | 'stall' = 'chunked';

    beforeAll(async () => {
      huge = await startLoopbackServer(async (_req, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'video/mp4', ...(mode === 'chunked' ? {} : { 'content-length': HUGE.length }) });
        if (mode === 'stall') return void res.write(HUGE.subarray(0, CHUNK));
        for (let at = 0; at < HUGE.length && !res.destroyed; at += CHUNK) {
          if (!res.write(HUGE.subarray(at, at + CHUNK))) await drainedOrClosed(res);
        }
        res.end();
      });
      fake = await startAlphaEmulator();
      fake.videoUrlFor = () => `${huge.url}/huge.mp4`;
      store = await startVideoStore(storeKind, { prefix: 'gw', inProcess: true });
      s3 = store.s3;
      gw = await startGateway(kind, { VIDEO_MAX_BYTES: String(MAX_BYTES), WEBHOOK_DELIVERY_INTERVAL_MS: '0', ...store.env });
      await gw.createChannel(alphaChannelBody(fake));
      ({ key } = await gw.createCustomer({ quota: 1_000_000 }));
    });
    afterAll(async () => {
      await gw?.close();
      await fake?.close();
      await huge?.close();
      await store?.close();
    });

    const archive = () => gw.app.get(VideoArchiveJob).archiveDueVideos();
    const stored = () => store.objects();
    const archiveState = async (taskId: string) =>
      (
        await queryDatabase<{ archive_status: string | null; archive_error: string | null; archive_due_at: number | null }>(
          gw.database,
          `SELECT a.status AS archive_status, a.error AS archive_error, a.due_at AS archive_due_at FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
        )
      )[0];

    async function completedTask(): Promise<string> {
      fake.scriptNext(finishAfter(0));
      const submitted = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: 'a lighthouse' })
        .expect(200);
      gw.clock.advance(4000);
      // Done at the provider; completed for its customer once the archive below has kept it (or given up on it).
      await gw.syncTasksOnly();
      expect((await gw.http.get(`/v1/videos/${submitted.body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.status).toBe(
        'in_progress',
      );
      return submitted.body.id;
    }

    /** Archived too large: failed for good with the reason, nothing kept, and the console shows why. */
    async function expectRefusedForGood(id: string): Promise<void> {
      expect(await archiveState(id)).toMatchObject({ archive_status: 'failed', archive_error: REASON, archive_due_at: null });
      expect(await stored()).toEqual([]);
      expect(s3?.openUploads() ?? []).toEqual([]);
      const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
      expect(detail).toMatchObject({ archive_status: 'failed', archive_error: REASON });
      // Too large to keep: completed all the same, charged as asked (the video could not be read).
      const answer = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      expect(answer).toMatchObject({ status: 'completed', usage: { settled: 'as_asked' } });
      // Not tried again: later rounds leave it alone.
      gw.clock.advance(60 * 60_000);
      expect(await archive()).toBe(0);
    }

    it('stops archiving a streamed video without a length once it passes the limit, keeps none of it, and keeps serving the provider’s copy', async () => {
      mode = 'chunked';
      const id = await completedTask();
      const abortedBefore = s3?.abortedUploads ?? 0;
      expect(await archive()).toBe(1);
      await expectRefusedForGood(id);
      // The S3 store had begun a multipart upload (a part is 8 MiB): it was aborted, not completed short.
      if (s3) expect(s3.abortedUploads).toBe(abortedBefore + 1);

      const served = await gw.http
        .get(`/v1/videos/${id}/content`)
        .set('Authorization', `Bearer ${key}`)
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(served.body.length).toBe(HUGE.length);
      expect(Buffer.compare(served.body, HUGE)).toBe(0);
      await gw.http.get(`/v1/videos/${id}/content?variant=thumbnail`).set('Authorization', `Bearer ${key}`).expect(404);
    });

    it('refuses an announced Content-Length over the limit before reading the body', async () => {
      // The provider announces 20 MiB and then sends nothing more: only the announced length can stop the archive.
      mode = 'stall';
      const id = await completedTask();
      expect(await archive()).toBe(1);
      await expectRefusedForGood(id);
    });

    it('stops a streamed video whose announced length is over the limit too', async () => {
      mode = 'announced';
      const id = await completedTask();
      expect(await archive()).toBe(1);
      await expectRefusedForGood(id);
      mode = 'chunked';
      const served = await gw.http
        .get(`/v1/videos/${id}/content`)
        .set('Authorization', `Bearer ${key}`)
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(served.body.length).toBe(HUGE.length);
    });
  });
}
