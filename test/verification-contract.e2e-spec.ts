import { ChannelsService } from '../src/upstream/channels.service';
import { startGateway, TestGateway } from './support/gateway';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { activeAsset, approvedCustomer, verifiedCustomer } from './support/verification-customers';
import { describeOnSqlite } from './support/test-databases';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';

const assetItem = (id: string) => ({ type: 'image_url', image_url: { url: `asset://${id}` } });
const NOT_ENABLED =
  'real-person verification is not enabled for this account: file an application at POST /v1/verification/applications and wait for approval';

/** Verification details of the documents that the flow suites do not pin down. */
describeOnSqlite('verification contract details', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    ({ gw, fake } = await startGatewayWithGammaEmulator(kind));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('treats verification_enabled as the approval: revoking it also stops verified assets in generation, before any charge', async () => {
    const { userId, key, groupId } = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const assetId = await activeAsset(gw, fake, key, groupId);
    const auth = `Bearer ${key}`;
    const generate = (body: object) => gw.http.post('/v1/video/generations').set('Authorization', auth).send(body);
    const withAsset = { model: 'gamma-2-0', prompt: 'Image 1 waves', metadata: { content: [assetItem(assetId)], resolution: '480p' } };

    await gw.admin.patch(`/api/admin/users/${userId}`, { verification_enabled: false }).expect(200);
    const submitsBefore = fake.submits.length;
    for (const res of [
      await gw.http.post('/v1/verification/sessions').set('Authorization', auth).send({ callback_url: 'https://biz.example/cb' }),
      await gw.http.get(`/v1/verification/assets/${assetId}`).set('Authorization', auth),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(NOT_ENABLED);
    }
    const refused = await generate(withAsset).expect(403);
    expect(refused.body).toEqual({ code: 'forbidden', message: NOT_ENABLED, data: null });
    expect(fake.submits.length).toBe(submitsBefore);
    expect(await gw.balance(userId)).toEqual({ quota: 100_000, used_quota: 0 });
    // Family C without a portrait is not part of the capability.
    await generate({ model: 'gamma-2-0', prompt: 'a lighthouse', metadata: { resolution: '480p' } }).expect(200);

    await gw.admin.patch(`/api/admin/users/${userId}`, { verification_enabled: true }).expect(200);
    await generate(withAsset).expect(200);
    expect(fake.submits.at(-1)!.json).toMatchObject({
      content: [{ type: 'text' }, { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' }],
    });
  });

  it("keeps the callback_url's own query exactly as written and puts the result parameters after it", async () => {
    const { key } = await approvedCustomer(gw);
    const session = (
      await gw.http
        .post('/v1/verification/sessions')
        .set('Authorization', `Bearer ${key}`)
        .send({ callback_url: 'https://biz.example/back?next=%2Fhome%20page&flag&resultCode=stale#top' })
        .expect(201)
    ).body;
    const res = await gw.http
      .get('/v1/callback')
      .query({
        bytedToken: session.provider_token,
        resultCode: '10000',
        algorithmBaseRespCode: '0',
        reqMeasureInfoValue: '0.98 ok',
        verify_type: 'real_time',
      })
      .expect(302);
    expect(res.headers.location).toBe(
      `https://biz.example/back?next=%2Fhome%20page&flag&providerToken=${session.provider_token}&resultCode=10000&algorithmBaseRespCode=0&reqMeasureInfoValue=0.98%20ok&verify_type=real_time#top`,
    );
  });

  it('documents the callback parameters in Swagger', async () => {
    const docs = (await gw.http.get('/docs-json').expect(200)).body;
    const names = docs.paths['/v1/callback'].get.parameters.map(
      (parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'query:bytedToken',
        'query:providerToken',
        'query:resultCode',
        'query:algorithmBaseRespCode',
        'query:reqMeasureInfoValue',
        'query:verify_type',
      ]),
    );
  });

  it('names the missing field of a session or an upload', async () => {
    const { key, groupId } = await verifiedCustomer(gw, fake);
    const auth = `Bearer ${key}`;
    const session = await gw.http.post('/v1/verification/sessions').set('Authorization', auth).send({}).expect(400);
    expect(session.body.error).toMatchObject({ param: 'callback_url', message: 'callback_url must be a string' });
    const upload = await gw.http
      .post(`/v1/verification/groups/${groupId}/assets`)
      .set('Authorization', auth)
      .send({ name: 'front' })
      .expect(400);
    expect(upload.body.error).toMatchObject({ param: 'url', message: 'url must be a string' });
  });

  it("keeps control plane calls within the provider's 3 per second, waiting rather than failing a short burst", async () => {
    const { key } = await approvedCustomer(gw);
    // Earlier calls out of the lanes' 1.2 s windows (real time: with REDIS_URL the counters live in Redis).
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const before = fake.controlCalls.length;
    const started = Date.now();
    const created = await Promise.all(
      Array.from({ length: 5 }, () =>
        gw.http.post('/v1/verification/sessions').set('Authorization', `Bearer ${key}`).send({ callback_url: 'https://biz.example/cb' }),
      ),
    );
    expect(created.map((res) => res.status)).toEqual([201, 201, 201, 201, 201]);
    const arrivals = fake.controlCalls
      .slice(before)
      .filter((call) => call.action === 'CreateVisualValidateSession')
      .map((call) => call.at);
    expect(arrivals).toHaveLength(5);
    // No second saw more than three of them (800 ms leaves room for loopback jitter; a burst-of-one-second
    // token bucket would put five into 700 ms).
    const busiest = Math.max(...arrivals.map((start) => arrivals.filter((at) => at >= start && at < start + 800).length));
    expect(busiest).toBe(3);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('runs a task with a verified asset only on the provider account that holds the asset', async () => {
    const { key, groupId } = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const assetId = await activeAsset(gw, fake, key, groupId);
    // Another provider account, preferred by priority: it cannot see the asset.
    const other = await startGammaEmulator({ apiKey: 'other-data-key', accessKey: 'AKOTHERACCOUNT' });
    const otherId = await gw.createChannel({ ...other.channelBody(), name: 'other-account', priority: 10 });
    try {
      const generate = (metadata: object) =>
        gw.http
          .post('/v1/video/generations')
          .set('Authorization', `Bearer ${key}`)
          .send({ model: 'gamma-2-0', prompt: 'p', metadata })
          .expect(200);
      const before = fake.submits.length;
      await generate({ content: [assetItem(assetId)] });
      expect(fake.submits.length).toBe(before + 1);
      expect(other.submits).toHaveLength(0);
      // Without an asset any channel may run it, and the preferred one does.
      await generate({ resolution: '480p' });
      expect(other.submits).toHaveLength(1);
    } finally {
      await gw.admin.patch(`/api/admin/channels/${otherId}`, { status: 'disabled' }).expect(200);
      await other.close();
    }
  });
});

describeOnSqlite('verification with MEDIA_ALLOW_PRIVATE_HOSTS=false', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    fake = await startGammaEmulator();
    gw = await startGateway(kind, { MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    fake.now = () => gw.clock.now();
    // The fake provider lives on loopback, which the admin API now refuses: the operator's trusted path.
    const body = fake.channelBody();
    await gw.app.get(ChannelsService).create(
      {
        name: 'fake-gamma',
        platform: 'gamma',
        baseUrl: fake.url,
        apiKey: fake.apiKey,
        models: body.models as string[],
        settings: body.settings as Record<string, string>,
      },
      true,
    );
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('refuses portrait and reference URLs on private hosts before calling the provider or charging', async () => {
    const { userId, key, groupId } = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const auth = `Bearer ${key}`;
    const message = (field: string) =>
      `${field} must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)`;
    const calls = fake.controlCalls.length;
    for (const url of ['http://127.0.0.1/me.jpg', 'http://10.0.0.8/me.jpg', 'http://169.254.169.254/latest']) {
      const res = await gw.http.post(`/v1/verification/groups/${groupId}/assets`).set('Authorization', auth).send({ url }).expect(400);
      expect(res.body.error).toMatchObject({ param: 'url', message: message('url') });
    }
    expect(fake.controlCalls.length).toBe(calls);
    await gw.http
      .post(`/v1/verification/groups/${groupId}/assets`)
      .set('Authorization', auth)
      .send({ url: 'https://93.184.216.34/me.jpg' })
      .expect(201);

    const reference = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', auth)
      .send({
        model: 'gamma-2-0',
        prompt: 'x',
        metadata: { content: [{ type: 'image_url', image_url: { url: 'http://192.168.1.20/face.png' } }] },
      })
      .expect(400);
    expect(reference.body).toEqual({ code: 'invalid_request', message: message('metadata.content[0].image_url.url'), data: null });
    expect(fake.submits).toHaveLength(0);
    expect(await gw.balance(userId)).toEqual({ quota: 100_000, used_quota: 0 });
  });
});
