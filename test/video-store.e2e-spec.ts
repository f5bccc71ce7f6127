import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { ProviderVideoSource } from '../src/storage/provider-video-source.service';
import { SignedLinksService } from '../src/storage/signed-links.service';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { alphaChannelBody, binaryBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { startVideoStore, TestVideoStore } from './support/s3-server';
import { describeEachDatabase, describeOnSqlite, queryDatabase } from './support/test-databases';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);

/** The provider forgets everything: its queries and its video links answer 404 from now on. */
function forget(fake: AlphaEmulatorServer): void {
  fake.inject('any', { http: 404 });
  fake.inject('file', { http: 404 });
}
const SIGNED_LINK = /^(http:\/\/127\.0\.0\.1:\d+)(\/v1\/videos\/(task_[A-Za-z0-9]+)\/content)\?expires=(\d+)&signature=([0-9a-f]{64})$/;
const TTL_S = 3600;

/** The file store on each database (its archive records are the database's business); S3, the same code over another store, on SQLite. */
const describeStore = (storeKind: 'file' | 's3') => (storeKind === 'file' ? describeEachDatabase : describeOnSqlite);

for (const storeKind of ['file', 's3'] as const) {
  describeStore(storeKind)(`the video store (${storeKind}): archive, serve, sign, thumbnail, delete`, (kind) => {
    let gw: TestGateway;
    let fake: AlphaEmulatorServer;
    let store: TestVideoStore;
    let key = '';
    let userId = 0;

    beforeAll(async () => {
      fake = await startAlphaEmulator();
      fake.videoBytes = SAMPLE;
      // Archive rounds run by hand, and so do the webhook publisher's: its claim briefly locks a task that
      // just ended, and an archive claim at that moment skips the row (FOR UPDATE SKIP LOCKED on MySQL).
      store = await startVideoStore(storeKind, { prefix: 'gw', inProcess: true });
      gw = await startGateway(kind, { VIDEO_URL_TTL_S: String(TTL_S), WEBHOOK_DELIVERY_INTERVAL_MS: '0', ...store.env });
      await gw.createChannel(alphaChannelBody(fake));
      ({ key, userId } = await gw.createCustomer({ quota: 1_000_000 }));
    });
    afterAll(async () => {
      await gw?.close();
      await fake?.close();
      await store?.close();
    });
    afterEach(() => {
      fake.clearFaults();
      fake.videoBytes = SAMPLE;
    });

    const get = (path: string, auth = key) => gw.http.get(path).set('Authorization', `Bearer ${auth}`).buffer(true).parse(binaryBody);
    const archive = () => gw.app.get(VideoArchiveJob).archiveDueVideos();
    const storedObjects = () => store.objects();
    const archiveState = async (taskId: string) =>
      (
        await queryDatabase<{ archive_status: string | null; archive_failures: number; archive_size: number | null }>(
          gw.database,
          `SELECT a.status AS archive_status, a.failures AS archive_failures, a.size AS archive_size FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
        )
      )[0];

    /** A family A task its provider finished, not archived yet (so still in progress for its customer, at 99%). */
    async function completedTask(owner = key): Promise<string> {
      fake.scriptNext(finishAfter(0));
      const submitted = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${owner}`)
        .send({ model: 'alpha/v5', prompt: 'a lighthouse' })
        .expect(200);
      gw.clock.advance(4000);
      await gw.syncTasksOnly();
      const done = await gw.http.get(`/v1/videos/${submitted.body.id}`).set('Authorization', `Bearer ${owner}`).expect(200);
      expect(done.body).toMatchObject({ status: 'in_progress', progress: 99 });
      return submitted.body.id;
    }

    it('archives a finished video and keeps serving it byte for byte once the provider forgot it: whole, ranges, HEAD, 416, ETag', async () => {
      const id = await completedTask();
      const filesBefore = fake.calls('file').length;
      expect((await archiveState(id)).archive_status).toBe('pending');
      expect(await archive()).toBe(1);
      expect(await archiveState(id)).toMatchObject({ archive_status: 'archived', archive_size: SAMPLE.length });

      // The provider forgets everything: every call now answers 404.
      forget(fake);
      const [{ result_url: providerUrl }] = await queryDatabase<{ result_url: string }>(
        gw.database,
        `SELECT result_url FROM tasks WHERE task_id = '${id}'`,
      );
      expect((await fetch(providerUrl)).status).toBe(404);
      const whole = await get(`/v1/videos/${id}/content`).expect(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['content-length']).toBe(String(SAMPLE.length));
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(Buffer.compare(whole.body, SAMPLE)).toBe(0);

      const middle = await get(`/v1/videos/${id}/content`).set('Range', 'bytes=100-1099').expect(206);
      expect(middle.headers['content-range']).toBe(`bytes 100-1099/${SAMPLE.length}`);
      expect(Buffer.compare(middle.body, SAMPLE.subarray(100, 1100))).toBe(0);
      const tail = await get(`/v1/videos/${id}/content`).set('Range', 'bytes=-500').expect(206);
      expect(Buffer.compare(tail.body, SAMPLE.subarray(SAMPLE.length - 500))).toBe(0);
      const open = await get(`/v1/videos/${id}/content`)
        .set('Range', `bytes=${SAMPLE.length - 10}-`)
        .expect(206);
      expect(Buffer.compare(open.body, SAMPLE.subarray(SAMPLE.length - 10))).toBe(0);

      const head = await gw.http.head(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${key}`).expect(200);
      expect(head.headers['content-length']).toBe(String(SAMPLE.length));
      expect(head.headers.etag).toMatch(/^"[^"]+"$/);
      expect(new Date(head.headers['last-modified']).getTime()).not.toBeNaN();
      await get(`/v1/videos/${id}/content`).set('If-None-Match', head.headers.etag).expect(304);

      const unsatisfiable = await get(`/v1/videos/${id}/content`).set('Range', 'bytes=99999999-').expect(416);
      expect(unsatisfiable.headers['content-range']).toBe(`bytes */${SAMPLE.length}`);
      // The provider was asked for the video once, by the archive (and once by this test, to see it gone).
      expect(fake.calls('file').length).toBe(filesBefore + 2);
    });

    it('makes a JPEG thumbnail when archiving; an undecodable video is archived without one (404)', async () => {
      const id = await completedTask();
      await archive();
      const thumb = await get(`/v1/videos/${id}/content?variant=thumbnail`).expect(200);
      expect(thumb.headers['content-type']).toBe('image/jpeg');
      expect([...thumb.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect(thumb.body.length).toBeGreaterThan(500);
      // The admin console's task list shows it.
      const listed = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}&page_size=100`).expect(200)).body.data.find(
        (t: { task_id: string }) => t.task_id === id,
      );
      expect(listed).toMatchObject({ archive_status: 'archived', has_thumbnail: true });
      const adminThumb = await gw.admin.get(`/api/admin/tasks/${id}/thumbnail`).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(adminThumb.body, thumb.body)).toBe(0);

      // An MP4 box header followed by noise: stored, but no frame can be decoded.
      const noise = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(12), Buffer.alloc(64 * 1024, 7)]);
      const broken = await completedTask();
      fake.videoBytes = noise;
      await archive();
      expect((await archiveState(broken)).archive_status).toBe('archived');
      forget(fake);
      expect(Buffer.compare((await get(`/v1/videos/${broken}/content`).expect(200)).body, noise)).toBe(0);
      const missing = await get(`/v1/videos/${broken}/content?variant=thumbnail`).expect(404);
      expect(JSON.parse(missing.body.toString()).error.message).toContain('no thumbnail');
      await gw.admin.get(`/api/admin/tasks/${broken}/thumbnail`).expect(404);
    });

    it('answers the thumbnail right after its provider is done, before archiving has made the stored one', async () => {
      const id = await completedTask();
      expect((await archiveState(id)).archive_status).not.toBe('archived');
      const thumb = await get(`/v1/videos/${id}/content?variant=thumbnail`).expect(200);
      expect(thumb.headers['content-type']).toBe('image/jpeg');
      expect([...thumb.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      // Once archived, the stored one is served (same frame, from the store).
      await archive();
      const stored = await get(`/v1/videos/${id}/content?variant=thumbnail`).expect(200);
      expect(stored.headers['content-type']).toBe('image/jpeg');
      expect(stored.headers.etag).toBeDefined();
    });

    it('hands out signed links that play without a key and are 403 when altered or expired; another account gets 404', async () => {
      const id = await completedTask();
      // Before the archive the task is not completed (no link in its answers), but a link made now plays: from the provider.
      const early = gw.app.get(SignedLinksService).contentUrl({ taskId: id }).slice(gw.url.length);
      expect(Buffer.compare((await gw.http.get(early).buffer(true).parse(binaryBody).expect(200)).body, SAMPLE)).toBe(0);
      await archive();
      const flat = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      const unified = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
      for (const link of [flat.metadata.url, unified.data.result_url]) {
        const match = SIGNED_LINK.exec(link)!;
        expect(match).not.toBeNull();
        expect(match[1]).toBe(gw.url);
        expect(match[3]).toBe(id);
        // Valid VIDEO_URL_TTL_S from when it was made (the clock is real time: a second may have passed since).
        expect(Number(match[4]) - Math.floor(gw.clock.now() / 1000)).toBeGreaterThanOrEqual(TTL_S - 1);
        expect(Number(match[4]) - Math.floor(gw.clock.now() / 1000)).toBeLessThanOrEqual(TTL_S);
      }
      // The provider's URL shows nowhere but the raw upstream record of the unified form.
      expect(JSON.stringify(flat)).not.toContain(fake.url);
      expect(JSON.stringify({ ...unified.data, data: undefined })).not.toContain(fake.url);

      const path = flat.metadata.url.slice(gw.url.length);
      const played = await gw.http.get(path).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(played.body, SAMPLE)).toBe(0);
      await gw.http.get(path).set('Range', 'bytes=0-99').expect(206);
      await gw.http.head(path).expect(200);
      const thumbnail = await gw.http.get(`${path}&variant=thumbnail`).expect(200);
      expect(thumbnail.headers['content-type']).toBe('image/jpeg');

      const [, , , , expires, signature] = SIGNED_LINK.exec(flat.metadata.url)!;
      const otherSignature = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
      await gw.http.get(`/v1/videos/${id}/content?expires=${expires}&signature=${otherSignature}`).expect(403);
      await gw.http.get(`/v1/videos/${id}/content?expires=${Number(expires) + 1}&signature=${signature}`).expect(403);
      await gw.http.get(`/v1/videos/${id}/content?expires=${expires}`).expect(403);
      const otherTask = await completedTask();
      await gw.http.get(`/v1/videos/${otherTask}/content?expires=${expires}&signature=${signature}`).expect(403);
      gw.clock.advance((TTL_S + 1) * 1000);
      const expired = await gw.http.get(path).expect(403);
      expect(expired.body.error.message).toBe('the link is invalid or has expired');

      // Another account: 404 everywhere, with its own key.
      const other = await gw.createCustomer({ quota: 0 });
      await gw.http.get(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${other.key}`).expect(404);
      await gw.http.get(`/v1/videos/${id}/content?variant=thumbnail`).set('Authorization', `Bearer ${other.key}`).expect(404);
      await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${other.key}`).expect(404);
      // Without a key and without a link: 401, as before.
      await gw.http.get(`/v1/videos/${id}/content`).expect(401);
    });

    it("stops a disabled account's signed links (stored copy or provider's), and plays them again once it is enabled", async () => {
      const owner = await gw.createCustomer({ quota: 1_000_000 });
      const archivedId = await completedTask(owner.key);
      await archive();
      expect((await archiveState(archivedId)).archive_status).toBe('archived');
      const providerId = await completedTask(owner.key);
      const links = [];
      // The archived one's link from its answer; the other (not archived: its answer has none yet) signed here.
      const archivedLink = (await gw.http.get(`/v1/videos/${archivedId}`).set('Authorization', `Bearer ${owner.key}`).expect(200)).body
        .metadata.url as string;
      for (const link of [archivedLink, gw.app.get(SignedLinksService).contentUrl({ taskId: providerId })])
        links.push(link.slice(gw.url.length));
      for (const path of links)
        expect(Buffer.compare((await gw.http.get(path).buffer(true).parse(binaryBody).expect(200)).body, SAMPLE)).toBe(0);

      await gw.admin.patch(`/api/admin/users/${owner.userId}`, { status: 'disabled' }).expect(200);
      for (const path of links) {
        const refused = await gw.http.get(path).expect(403);
        expect(refused.body.error.message).toBe('the link is invalid or has expired');
        await gw.http.get(path).set('Range', 'bytes=0-99').expect(403);
        await gw.http.get(`${path}&variant=thumbnail`).expect(403);
      }

      await gw.admin.patch(`/api/admin/users/${owner.userId}`, { status: 'active' }).expect(200);
      for (const path of links)
        expect(Buffer.compare((await gw.http.get(path).buffer(true).parse(binaryBody).expect(200)).body, SAMPLE)).toBe(0);
      await gw.http.get(`${links[0]}&variant=thumbnail`).expect(200);
    });

    it('delete removes the stored video and thumbnail; /metrics and the admin API count what is stored', async () => {
      await archive(); // whatever earlier tests left due, so the baseline holds still
      const before = (await gw.admin.get('/api/admin/video-store').expect(200)).body;
      const beforeObjects = await storedObjects();
      const id = await completedTask();
      await archive();
      const objects = await storedObjects();
      expect(objects.length).toBe(beforeObjects.length + 2);
      expect(objects.filter((name) => name.includes('tmp/'))).toEqual([]);
      // Keys carry nothing of the task or its owner.
      for (const name of objects) expect(name).not.toContain(id.slice(5));

      const summary = (await gw.admin.get('/api/admin/video-store').expect(200)).body;
      expect(summary).toMatchObject({ kind: storeKind, stored_objects: before.stored_objects + 2 });
      expect(summary.stored_bytes).toBeGreaterThan(before.stored_bytes + SAMPLE.length);
      const metrics = (await gw.http.get('/metrics').expect(200)).text;
      expect(metrics).toContain(`gateway_video_store_objects ${summary.stored_objects}`);
      expect(metrics).toContain(`gateway_video_store_bytes ${summary.stored_bytes}`);

      await gw.http.delete(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
      expect(await storedObjects()).toEqual(beforeObjects);
      expect((await gw.admin.get('/api/admin/video-store').expect(200)).body).toMatchObject({
        stored_objects: before.stored_objects,
        stored_bytes: before.stored_bytes,
      });
      await gw.http.get(`/v1/videos/${id}/content`).set('Authorization', `Bearer ${key}`).expect(404);
      // The operator sees it deleted, with nothing to play.
      const listed = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}&page_size=100`).expect(200)).body.data.find(
        (t: { task_id: string }) => t.task_id === id,
      );
      expect(listed).toMatchObject({ status: 'SUCCESS', deleted: true, has_video: false });
      expect((await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body).toMatchObject({ deleted: true, has_video: false });
      await gw.admin.get(`/api/admin/tasks/${id}/content`).expect(404);
      await gw.admin.get(`/api/admin/tasks/${id}/thumbnail`).expect(404);
    });

    it('never serves an HTML page from the provider as a video, and never archives one', async () => {
      const page = Buffer.from('<!DOCTYPE html><html><body>Error 500 at http://10.0.0.7:8080/internal</body></html>');
      // An HTML page labelled video/mp4 at the provider's URL.
      const id = await completedTask();
      fake.videoBytes = page;
      const relayed = await get(`/v1/videos/${id}/content`).expect(503);
      expect(relayed.headers['content-type']).toContain('application/json');
      expect(relayed.body.toString()).not.toContain('10.0.0.7');
      await archive();
      expect(await archiveState(id)).toMatchObject({ archive_status: 'pending', archive_failures: 1 });
      await get(`/v1/videos/${id}/content?variant=thumbnail`).expect(404);

      // An honest text/html answer, from a link elsewhere.
      const htmlServer: LoopbackServer = await startLoopbackServer((_req, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
      });
      try {
        fake.videoUrlFor = () => `${htmlServer.url}/video.mp4`;
        const other = await completedTask();
        await get(`/v1/videos/${other}/content`).expect(503);
        await archive();
        expect((await archiveState(other)).archive_status).toBe('pending');
      } finally {
        fake.videoUrlFor = null;
        await htmlServer.close();
      }
    });

    it('gives up on a download that stalls, keeps nothing of it, and archives on a later try', async () => {
      const source = gw.app.get(ProviderVideoSource);
      const before = await storedObjects();
      const id = await completedTask();
      source.timeoutMs = 500;
      try {
        fake.inject('file', { stallAfter: Math.floor(SAMPLE.length / 2) }, 1);
        await archive();
        expect(await archiveState(id)).toMatchObject({ archive_status: 'pending', archive_failures: 1 });
        expect(await storedObjects()).toEqual(before);
      } finally {
        source.timeoutMs = 30_000;
      }
      gw.clock.advance(10 * 60_000);
      await archive();
      expect(await archiveState(id)).toMatchObject({ archive_status: 'archived', archive_size: SAMPLE.length });
    });

    it('answers 416 for an unsatisfiable range also while serving from the provider', async () => {
      const id = await completedTask();
      const answer = await get(`/v1/videos/${id}/content`).set('Range', 'bytes=99999999-').expect(416);
      expect(answer.headers['content-range']).toBe(`bytes */${SAMPLE.length}`);
    });

    it('says why when the provider lost the video before it was archived, and an admin can re-archive it', async () => {
      const id = await completedTask();
      const videoId = Math.max(...fake.videos.keys());
      // The provider's link expired and the task is unknown to it now (a fresh query fails it).
      fake.expireUrls();
      await fake.setScript(videoId, [8]);
      // Over an hour after its end: the video was there, and is gone (a link dead within the hour is a video that never was).
      gw.clock.advance(3600_000 + 1_000);
      await archive();
      expect((await archiveState(id)).archive_status).toBe('failed');
      const gone = await get(`/v1/videos/${id}/content`).expect(410);
      expect(JSON.parse(gone.body.toString()).error.message).toContain('no longer available');
      expect((await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.status).toBe('completed');

      // The provider has it again (say, it was restored): an admin asks for another archive.
      await fake.setScript(videoId, [1]);
      await gw.admin.post(`/api/admin/tasks/${id}/archive`).expect(202, { task_id: id, archive_status: 'pending' });
      await archive();
      expect((await archiveState(id)).archive_status).toBe('archived');
      await gw.admin.post(`/api/admin/tasks/${id}/archive`).expect(404);
      await gw.admin.post('/api/admin/tasks/task_unknown/archive').expect(404);
    });
  });
}

describeOnSqlite('VIDEO_STORE=none: a pure proxy of the provider', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  let key = '';

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    fake.videoBytes = SAMPLE;
    gw = await startGateway(kind, { VIDEO_STORE: 'none' });
    await gw.createChannel(alphaChannelBody(fake));
    ({ key } = await gw.createCustomer({ quota: 1_000_000 }));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('keeps no copy, serves the provider through signed links and keys, and has no thumbnails', async () => {
    fake.scriptNext(finishAfter(0));
    const { body } = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'alpha/v5', prompt: 'x' })
      .expect(200);
    gw.clock.advance(4000);
    await gw.sync();
    expect(await gw.app.get(VideoArchiveJob).archiveDueVideos()).toBe(0);
    const flat = (await gw.http.get(`/v1/videos/${body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    expect(flat.metadata.url).toMatch(SIGNED_LINK);
    const played = await gw.http.get(flat.metadata.url.slice(gw.url.length)).buffer(true).parse(binaryBody).expect(200);
    expect(Buffer.compare(played.body, SAMPLE)).toBe(0);
    await gw.http.get(`/v1/videos/${body.id}/content?variant=thumbnail`).set('Authorization', `Bearer ${key}`).expect(404);
    expect((await gw.admin.get('/api/admin/video-store').expect(200)).body).toMatchObject({ kind: 'none', stored_objects: 0 });
    // Once the provider forgot it, there is nothing to serve: a 503, as before.
    forget(fake);
    await gw.http.get(`/v1/videos/${body.id}/content`).set('Authorization', `Bearer ${key}`).expect(503);
    fake.clearFaults();
    await gw.http.delete(`/v1/videos/${body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
  });
});
