import { GENERATION_MS } from '../src/families/alpha/emulator/alpha-emulator';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { binaryBody } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

/** The README's walk-through on the embedded simulator: a range past the end is a 416 before and after archiving. */
describeOnSqlite('the video store with the embedded simulator', (kind) => {
  let gw: TestGateway;
  let key = '';

  beforeAll(async () => {
    // Archive rounds by hand; no webhook publisher round may hold a just-ended task's row meanwhile (see video-store.e2e-spec.ts).
    gw = await startGateway(kind, { SIMULATOR: 'on', MEDIA_ALLOW_PRIVATE_HOSTS: 'false', WEBHOOK_DELIVERY_INTERVAL_MS: '0' });
    ({ key } = await gw.createCustomer({ quota: 1_000_000 }));
  });
  afterAll(async () => gw?.close());

  const get = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`).buffer(true).parse(binaryBody);

  it('answers an unsatisfiable range with 416 (not a 503 to retry), from the provider and from the copy', async () => {
    const { body } = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'alpha/v6', prompt: 'a lighthouse', seconds: '4' })
      .expect(200);
    for (const ms of [2000, GENERATION_MS, 2000]) {
      gw.clock.advance(ms);
      await gw.syncTasksOnly();
    }
    // Done at the simulated provider, not archived yet: still in progress, its content served from the provider.
    expect((await get(`/v1/videos/${body.id}`).expect(200)).body.toString()).toContain('"in_progress"');
    const video = (await get(`/v1/videos/${body.id}/content`).expect(200)).body as Buffer;
    const fromProvider = await get(`/v1/videos/${body.id}/content`).set('Range', 'bytes=99999999-').expect(416);
    expect(fromProvider.headers['content-range']).toBe(`bytes */${video.length}`);

    expect(await gw.app.get(VideoArchiveJob).archiveDueVideos()).toBe(1);
    expect((await get(`/v1/videos/${body.id}`).expect(200)).body.toString()).toContain('"completed"');
    const fromCopy = await get(`/v1/videos/${body.id}/content`).set('Range', 'bytes=99999999-').expect(416);
    expect(fromCopy.headers['content-range']).toBe(`bytes */${video.length}`);
    expect(Buffer.compare((await get(`/v1/videos/${body.id}/content`).expect(200)).body, video)).toBe(0);
    expect((await get(`/v1/videos/${body.id}/content?variant=thumbnail`).expect(200)).headers['content-type']).toBe('image/jpeg');
  });
});
