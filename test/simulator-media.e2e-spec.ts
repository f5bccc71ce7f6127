import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvedCustomer } from './support/verification-customers';
import { binaryBody } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite, freshDatabase, FreshDatabase } from './support/test-databases';

const SAMPLE_PNG = readFileSync(join(__dirname, '../src/simulator/assets/sample.png'));
const SAMPLE_MP4 = readFileSync(join(__dirname, '../src/simulator/assets/sample.mp4'));

/**
 * Every family and the verification assets tried offline with the defaults: the simulator's
 * sample media on the gateway's own PUBLIC_BASE_URL host is a trusted media source, while other
 * loopback URLs stay refused (MEDIA_ALLOW_PRIVATE_HOSTS=false). The simulator's groups and assets
 * outlive a restart.
 */
describeOnSqlite('sample media and the simulator, offline with the defaults', (kind) => {
  let database: FreshDatabase;
  let gw: TestGateway;
  let key: string;
  let userId: number;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    gw = await startGateway(kind, { SIMULATOR: 'on', MEDIA_ALLOW_PRIVATE_HOSTS: 'false' }, database);
    ({ key, userId } = await approvedCustomer(gw, { quota: 5_000_000 }));
  });
  afterAll(async () => {
    await gw?.close();
    await database?.drop();
  });

  const media = (file: string) => `${gw.config.publicBaseUrl}/simulator/media/${file}`;
  const post = (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${key}`).send(body);
  const get = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`);
  const pollRounds = async (rounds: number, ms = 5_000) => {
    for (let i = 0; i < rounds; i++) {
      gw.clock.advance(ms);
      await gw.sync();
    }
  };

  it('serves the sample image and video without a key, with Range', async () => {
    const png = await gw.http.get('/simulator/media/sample.png').buffer(true).parse(binaryBody).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(png.body as Buffer, SAMPLE_PNG)).toBe(0);
    const mp4 = await gw.http.get('/simulator/media/sample.mp4').set('Range', 'bytes=0-7').buffer(true).parse(binaryBody).expect(206);
    expect(Buffer.compare(mp4.body as Buffer, SAMPLE_MP4.subarray(0, 8))).toBe(0);
    await gw.http.get('/simulator/media/secret.txt').expect(404);
    await gw.http.get('/simulator/media/..%2F..%2Fmain.ts').expect(404);
  });

  it('runs family A image-to-video from the sample image', async () => {
    const res = await post('/v1/videos', { model: 'alpha/v6', prompt: 'the sun sets', image: media('sample.png') }).expect(200);
    await pollRounds(4, 2_000);
    expect((await get(`/v1/videos/${res.body.id}`).expect(200)).body).toMatchObject({ status: 'completed', size: '1280x720' });
  });

  it('runs family B i2v, r2v and video-edit from the sample media', async () => {
    const i2v = await post('/v1/video/generations', {
      model: 'beta-1.0-i2v',
      prompt: 'the sun sets',
      input_reference: media('sample.png'),
      size: '720P',
    }).expect(200);
    const r2v = await post('/v1/video/generations', {
      model: 'beta-1.0-r2v',
      prompt: '[Image 1] at dawn',
      size: '720P',
      metadata: { input: { media: [{ type: 'reference_image', url: media('sample.png') }] } },
    }).expect(200);
    const edit = await post('/v1/video/generations', {
      model: 'beta-1.0-video-edit',
      prompt: 'make it rain',
      size: '720P',
      metadata: { input: { media: [{ type: 'video', url: media('sample.mp4') }] } },
    }).expect(200);
    await pollRounds(4);
    for (const task of [i2v, r2v, edit]) {
      const unified = (await get(`/v1/video/generations/${task.body.id}`).expect(200)).body.data;
      expect(unified.status).toBe('SUCCESS');
    }
    // Every family reads `size` the same way: the provider's output size (720P, 16:9).
    expect((await get(`/v1/videos/${r2v.body.id}`).expect(200)).body.size).toBe('1280x720');
  });

  it('still refuses other loopback URLs and data URIs where the provider fetches the media itself', async () => {
    const port = new URL(gw.url).port;
    const before = await gw.balance(userId);
    const loopback = await post('/v1/video/generations', {
      model: 'beta-1.0-i2v',
      prompt: 'x',
      input_reference: `http://localhost:${port}/simulator/media/sample.png`,
    }).expect(400);
    expect(loopback.body.message).toMatch(/input_reference must point to a public host/);
    const dataUri = await post('/v1/video/generations', {
      model: 'beta-1.0-i2v',
      prompt: 'x',
      input_reference: `data:image/png;base64,${SAMPLE_PNG.toString('base64')}`,
    }).expect(400);
    expect(dataUri.body.message).toMatch(/data URIs are not accepted/);
    expect(await gw.balance(userId)).toEqual(before);
  });

  it('verifies a person, uploads the sample image as an asset, and keeps the group and assets across a restart', async () => {
    const auth = `Bearer ${key}`;
    const created = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', auth)
      .send({ callback_url: 'https://biz.example/done' })
      .expect(201);
    const h5 = new URL(created.body.h5_link);
    const page = await gw.http.get(`${h5.pathname}${h5.search}`).expect(200);
    const passHref = /href="([^"]*\/h5\/pass[^"]*)"/.exec(page.text)![1].replace(/&amp;/g, '&');
    const provider = await gw.http.get(passHref).expect(302);
    const callback = new URL(provider.headers.location);
    await gw.http.get(`${callback.pathname}${callback.search}`).expect(302);
    const groupId = (await get(`/v1/verification/sessions/${created.body.session_id}`).expect(200)).body.group_id;
    expect(groupId).toMatch(/^group-/);
    const asset = await post(`/v1/verification/groups/${groupId}/assets`, { url: media('sample.png') }).expect(201);
    gw.clock.advance(2_500);
    expect((await get(`/v1/verification/assets/${asset.body.asset_id}`).expect(200)).body.status).toBe('active');

    // Restart on the same database (a new port): the provider still knows the group and the asset.
    const elapsed = gw.clock.now() - Date.now();
    await gw.close();
    gw = await startGateway(kind, { SIMULATOR: 'on', MEDIA_ALLOW_PRIVATE_HOSTS: 'false' }, database);
    gw.clock.advance(elapsed); // time moved on for the provider too
    const second = await post(`/v1/verification/groups/${groupId}/assets`, { url: media('sample.png'), name: 'after the restart' }).expect(
      201,
    );
    gw.clock.advance(2_500);
    expect((await get(`/v1/verification/assets/${second.body.asset_id}`).expect(200)).body.status).toBe('active');
    const listed = await get(`/v1/verification/groups/${groupId}/assets`).expect(200);
    expect(listed.body.data.map((item: { asset_id: string }) => item.asset_id).sort()).toEqual(
      [asset.body.asset_id, second.body.asset_id].sort(),
    );

    const task = await post('/v1/video/generations', {
      model: 'gamma-2-0',
      prompt: 'Image 1 waves',
      duration: 5,
      metadata: {
        content: [{ type: 'image_url', image_url: { url: `asset://${asset.body.asset_id}` } }],
        resolution: '720p',
        ratio: '16:9',
      },
    }).expect(200);
    await pollRounds(2);
    const done = (await get(`/v1/videos/${task.body.id}`).expect(200)).body;
    expect(done).toMatchObject({ status: 'completed', size: '1280x720' });
  });
});
