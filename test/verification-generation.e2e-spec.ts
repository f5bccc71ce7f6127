import { GammaEmulatorServer } from './support/gamma-emulator';
import { activeAsset, verifiedCustomer } from './support/verification-customers';
import { TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeEachDatabase } from './support/test-databases';

/** gamma-2-0 720p is 10 credits (1000 quota units) a second; gamma-2-0-fast 480p is 3 credits. */
const PER_SECOND_720P = 1000;

describeEachDatabase('family C generation with verified assets', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    ({ gw, fake } = await startGatewayWithGammaEmulator(kind));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const submit = (key: string, body: object) => gw.http.post('/v1/video/generations').set('Authorization', `Bearer ${key}`).send(body);
  const assetItem = (id: string) => ({ type: 'image_url', image_url: { url: `asset://${id}` } });

  it('forwards an active asset as a reference image after the prompt, follows the task to SUCCESS in both forms', async () => {
    const { userId, key, groupId } = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const assetId = await activeAsset(gw, fake, key, groupId);
    const submitted = await submit(key, {
      model: 'gamma-2-0',
      prompt: 'Image 1 waves at the camera',
      duration: 6,
      metadata: { content: [assetItem(assetId)], resolution: '720p', ratio: '16:9', seed: 42 },
    }).expect(200);
    expect(submitted.body).toMatchObject({ id: expect.stringMatching(/^task_/), object: 'video', model: 'gamma-2-0', status: 'queued' });
    const taskId = submitted.body.id;

    expect(fake.submits).toHaveLength(1);
    expect(fake.submits[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(fake.submits[0].json).toEqual({
      model: 'gamma-2-0',
      content: [
        { type: 'text', text: 'Image 1 waves at the camera' },
        { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' },
      ],
      resolution: '720p',
      ratio: '16:9',
      duration: 6,
      seed: 42,
    });
    expect(await gw.balance(userId)).toEqual({ quota: 100_000 - 6 * PER_SECOND_720P, used_quota: 6 * PER_SECOND_720P });

    const upstreamId = fake.taskIds().at(-1)!;
    const read = () => gw.http.get(`/v1/video/generations/${taskId}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect((await read()).body.data).toMatchObject({
      task_id: taskId,
      status: 'NOT_START',
      action: 'referenceGenerate',
      platform: '',
      quota: 6000,
    });

    await fake.setTask(upstreamId, { status: 'running' });
    gw.clock.advance(1_000);
    await gw.sync();
    expect((await read()).body.data.status).toBe('IN_PROGRESS');

    // Its video on the provider's own host (the gateway stores it before the task completes).
    await fake.setTask(upstreamId, { status: 'succeeded' });
    gw.clock.advance(1_000);
    await gw.sync();
    const done = (await read()).body;
    const signed = expect.stringMatching(new RegExp(`^${gw.url}/v1/videos/${taskId}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    expect(JSON.stringify(done)).not.toContain(fake.url);
    expect(done).toMatchObject({
      code: 'success',
      data: {
        task_id: taskId,
        status: 'SUCCESS',
        progress: '100%',
        // The gateway's own signed link, in the raw `data` too: the provider's URL never reaches a client.
        result_url: signed,
        properties: { input: 'Image 1 waves at the camera', upstream_model_name: 'gamma-2-0', origin_model_name: 'gamma-2-0' },
        data: { id: upstreamId, status: 'succeeded', content: { video_url: signed } },
      },
    });
    const flat = await gw.http.get(`/v1/videos/${taskId}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(flat.body).toMatchObject({ id: taskId, status: 'completed', progress: 100, size: '1280x720', model: 'gamma-2-0' });
  });

  it('refunds a task the provider fails', async () => {
    const { userId, key, groupId } = await verifiedCustomer(gw, fake, { quota: 50_000 });
    const assetId = await activeAsset(gw, fake, key, groupId);
    const submitted = await submit(key, {
      model: 'gamma-2-0-fast',
      prompt: 'a walk',
      duration: 4,
      metadata: { content: [assetItem(assetId)], resolution: '480p' },
    }).expect(200);
    expect(await gw.balance(userId)).toEqual({ quota: 50_000 - 4 * 300, used_quota: 4 * 300 });
    await fake.setTask(fake.taskIds().at(-1)!, {
      status: 'failed',
      error: { code: 'OutputVideoSensitiveContentDetected', message: 'the output may contain sensitive content' },
    });
    gw.clock.advance(1_000);
    await gw.sync();
    const read = await gw.http.get(`/v1/video/generations/${submitted.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(read.body).toMatchObject({
      code: 'success',
      data: {
        status: 'FAILURE',
        progress: '100%',
        fail_reason: 'content moderation failed: OutputVideoSensitiveContentDetected: the output may contain sensitive content',
      },
    });
    expect(await gw.balance(userId)).toEqual({ quota: 50_000, used_quota: 0 });
    const refunds = await gw.admin.get(`/api/admin/logs?task_id=${submitted.body.id}&type=refund`).expect(200);
    expect(refunds.body.data[0]).toMatchObject({ type: 'refund', quota: 1200, task_id: submitted.body.id });
  });

  it('refuses foreign, inactive, unknown and misused assets with 400 before any charge', async () => {
    const owner = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const other = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const foreignAsset = await activeAsset(gw, fake, other.key, other.groupId);
    const processing = await gw.http
      .post(`/v1/verification/groups/${owner.groupId}/assets`)
      .set('Authorization', `Bearer ${owner.key}`)
      .send({ url: 'https://cdn.example/new.jpg' })
      .expect(201);
    const failed = await gw.http
      .post(`/v1/verification/groups/${owner.groupId}/assets`)
      .set('Authorization', `Bearer ${owner.key}`)
      .send({ url: 'https://cdn.example/bad.jpg' })
      .expect(201);
    await fake.setAsset(failed.body.asset_id, 'Failed', { Code: 'FaceMismatch', Message: 'no match' });
    const ownActive = await activeAsset(gw, fake, owner.key, owner.groupId);
    const submitsBefore = fake.submits.length;

    const cases: Array<[object, string, string]> = [
      [
        { model: 'gamma-2-0', prompt: 'x', metadata: { content: [assetItem(foreignAsset)] } },
        `metadata.content[0].image_url.url: asset ${foreignAsset} not found`,
        'foreign',
      ],
      [
        { model: 'gamma-2-0', prompt: 'x', metadata: { content: [assetItem('asset-unknown-1')] } },
        'metadata.content[0].image_url.url: asset asset-unknown-1 not found',
        'unknown',
      ],
      [
        { model: 'gamma-2-0', prompt: 'x', metadata: { content: [assetItem(ownActive), assetItem(processing.body.asset_id)] } },
        `metadata.content[1].image_url.url: asset ${processing.body.asset_id} is not active (status processing)`,
        'processing',
      ],
      [
        { model: 'gamma-2-0', prompt: 'x', metadata: { content: [assetItem(failed.body.asset_id)] } },
        `metadata.content[0].image_url.url: asset ${failed.body.asset_id} is not active (status failed)`,
        'failed',
      ],
      [
        { model: 'beta-1.0-r2v', prompt: 'x', metadata: { content: [assetItem(ownActive)] } },
        'metadata.content[0].image_url.url: asset:// references can only be used with gamma-2-0 and gamma-2-0-fast (model beta-1.0-r2v)',
        'other model',
      ],
      [
        { model: 'beta-1.0-r2v', prompt: 'x', metadata: { input: { media: [{ type: 'reference_image', url: `asset://${ownActive}` }] } } },
        'metadata.input.media[0].url: asset:// references can only be used with gamma-2-0 and gamma-2-0-fast (model beta-1.0-r2v)',
        'other model, media',
      ],
      [
        { model: 'gamma-2-0-fast', prompt: 'x', metadata: { resolution: '1080p' } },
        'metadata.resolution 1080p is not supported by gamma-2-0-fast (use 480p or 720p)',
        '1080p fast',
      ],
      [{ model: 'gamma-2-0', metadata: {} }, 'prompt is required', 'no prompt'],
      [{ model: 'gamma-2-0', prompt: 'x', duration: 3 }, 'duration must be an integer between 4 and 15 seconds', 'duration'],
      [
        { model: 'gamma-2-0', prompt: 'x', metadata: { ratio: '5:4' } },
        'metadata.ratio must be one of 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive',
        'ratio',
      ],
      [
        { model: 'gamma-2-0', prompt: 'x', metadata: { content: [{ type: 'video_url', video_url: { url: 'https://x' } }] } },
        'metadata.content[0].type must be image_url',
        'type',
      ],
    ];
    for (const [body, message, label] of cases) {
      const res = await submit(owner.key, body);
      expect({ label, status: res.status, body: res.body }).toEqual({
        label,
        status: 400,
        body: { code: 'invalid_request', message, data: null },
      });
    }
    // Authentication comes before the asset check: no key, no verdict on the body.
    const anonymous = await gw.http
      .post('/v1/video/generations')
      .send({ model: 'beta-1.0-r2v', prompt: 'x', metadata: { content: [assetItem(ownActive)] } });
    expect(anonymous.status).toBe(401);
    expect(fake.submits.length).toBe(submitsBefore);
    expect(await gw.balance(owner.userId)).toEqual({ quota: 100_000, used_quota: 0 });
    const consumed = await gw.admin.get(`/api/admin/logs?user_id=${owner.userId}&type=consume`).expect(200);
    expect(consumed.body.total).toBe(0);
  });

  it('takes a just-activated asset (asks the provider before refusing) and a provider refusal costs nothing', async () => {
    const { userId, key, groupId } = await verifiedCustomer(gw, fake, { quota: 100_000 });
    const created = await gw.http
      .post(`/v1/verification/groups/${groupId}/assets`)
      .set('Authorization', `Bearer ${key}`)
      .send({ url: 'https://cdn.example/fresh.jpg' })
      .expect(201);
    await fake.setAsset(created.body.asset_id, 'Active');
    fake.failNext('submit', 400, 'InputImageSensitiveContentDetected.PrivacyInformation', 'the input image may contain a real person');
    const refused = await submit(key, {
      model: 'gamma-2-0',
      prompt: 'x',
      metadata: { content: [assetItem(created.body.asset_id)] },
    }).expect(400);
    expect(refused.body).toEqual({
      code: 'invalid_request',
      message:
        'upstream rejected the request: content moderation failed: InputImageSensitiveContentDetected.PrivacyInformation: the input image may contain a real person',
      data: null,
    });
    expect(await gw.balance(userId)).toEqual({ quota: 100_000, used_quota: 0 });
    const accepted = await submit(key, {
      model: 'gamma-2-0',
      prompt: 'x',
      metadata: { content: [assetItem(created.body.asset_id)] },
    }).expect(200);
    expect(accepted.body.status).toBe('queued');
    // Defaults: 5 s at 720p.
    expect(fake.submits.at(-1)!.json).toMatchObject({ resolution: '720p', duration: 5 });
    expect(await gw.balance(userId)).toEqual({ quota: 100_000 - 5 * PER_SECOND_720P, used_quota: 5 * PER_SECOND_720P });
  });
});
