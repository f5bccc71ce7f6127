import { betaChannelBody, BetaEmulatorServer, SAMPLE_MEDIA, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

/** Family B submits on /v1/video/generations: what the provider receives, and what is charged. */
describeEachDatabase('generations: family B submit', (kind) => {
  let gw: TestGateway;
  let fake: BetaEmulatorServer;
  let customer: { userId: number; key: string };
  let image1: string;
  let image2: string;
  let video: string;

  const submit = (body: object, key = customer.key) =>
    gw.http.post('/v1/video/generations').set('Authorization', `Bearer ${key}`).send(body);
  const lastSubmit = () => fake.submits().at(-1)!;

  beforeAll(async () => {
    fake = await startBetaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(betaChannelBody(fake));
    customer = await gw.createCustomer({ quota: 1_000_000 });
    image1 = fake.serveMedia('one.png', SAMPLE_MEDIA.png);
    image2 = fake.serveMedia('two.jpg', SAMPLE_MEDIA.jpeg);
    video = fake.serveMedia('clip.mp4', SAMPLE_MEDIA.mp4);
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('t2v: answers the flat form, sends the defaults with the Async header, charges 1080p x 5 s', async () => {
    const res = await submit({ model: 'beta-1.0-t2v', prompt: 'a cat surfing' }).expect(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^task_[A-Za-z0-9]{24,}$/),
      task_id: res.body.id,
      object: 'video',
      model: 'beta-1.0-t2v',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
    });
    const sent = lastSubmit();
    expect(sent.headers['x-dashscope-async']).toBe('enable');
    expect(sent.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent.headers['content-type']).toMatch(/application\/json/);
    expect(sent.json).toEqual({
      model: 'beta-1.0-t2v',
      input: { prompt: 'a cat surfing' },
      parameters: { resolution: '1080P', ratio: '16:9', duration: 5 },
    });
    // 15 credits per second at 1080p, 100 quota per credit.
    expect(await gw.balance(customer.userId)).toEqual({ quota: 1_000_000 - 7500, used_quota: 7500 });
    const consume = await gw.admin.get(`/api/admin/logs?task_id=${res.body.id}&type=consume`).expect(200);
    expect(consume.body.data[0]).toMatchObject({ quota: -7500, model: 'beta-1.0-t2v' });
  });

  itOnSqliteOnly(kind)('t2v: forwards size, duration, ratio, watermark and seed', async () => {
    await submit({
      model: 'beta-1.0-t2v',
      prompt: 'p',
      size: '720P',
      duration: 10,
      metadata: { ratio: '9:16', watermark: false, seed: 2147483647 },
    }).expect(200);
    expect(lastSubmit().json).toEqual({
      model: 'beta-1.0-t2v',
      input: { prompt: 'p' },
      parameters: { resolution: '720P', ratio: '9:16', duration: 10, watermark: false, seed: 2147483647 },
    });
  });

  itOnSqliteOnly(kind)('i2v: input_reference becomes the first_frame, no ratio is sent even when given', async () => {
    await submit({
      model: 'beta-1.0-i2v',
      prompt: 'she smiles',
      input_reference: image1,
      duration: 3,
      metadata: { ratio: '1:1', seed: 7 },
    }).expect(200);
    expect(lastSubmit().json).toEqual({
      model: 'beta-1.0-i2v',
      input: { prompt: 'she smiles', media: [{ type: 'first_frame', url: image1 }] },
      parameters: { resolution: '1080P', duration: 3, seed: 7 },
    });
  });

  itOnSqliteOnly(kind)('i2v: a first_frame media element works as well', async () => {
    await submit({ model: 'beta-1.0-i2v', prompt: 'x', metadata: { input: { media: [{ type: 'first_frame', url: image2 }] } } }).expect(
      200,
    );
    expect(lastSubmit().json).toMatchObject({
      input: { media: [{ type: 'first_frame', url: image2 }] },
      parameters: { resolution: '1080P', duration: 5 },
    });
    expect((lastSubmit().json as { parameters: object }).parameters).not.toHaveProperty('ratio');
  });

  itOnSqliteOnly(kind)('r2v: reference images keep their order ([Image N]) and the ratio default', async () => {
    const media = [
      { type: 'reference_image', url: image2 },
      { type: 'reference_image', url: image1 },
    ];
    await submit({ model: 'beta-1.0-r2v', prompt: '[Image 1] hugs [Image 2]', metadata: { input: { media } } }).expect(200);
    expect(lastSubmit().json).toEqual({
      model: 'beta-1.0-r2v',
      input: { prompt: '[Image 1] hugs [Image 2]', media },
      parameters: { resolution: '1080P', ratio: '16:9', duration: 5 },
    });
  });

  itOnSqliteOnly(kind)('video-edit: no duration and no ratio, audio_setting default auto, billed as 15 s', async () => {
    const before = await gw.balance(customer.userId);
    const media = [
      { type: 'video', url: video },
      { type: 'reference_image', url: image1 },
    ];
    const res = await submit({
      model: 'beta-1.0-video-edit',
      prompt: 'make it snow',
      duration: 10,
      metadata: { ratio: '1:1', input: { media } },
    }).expect(200);
    expect(lastSubmit().json).toEqual({
      model: 'beta-1.0-video-edit',
      input: { prompt: 'make it snow', media },
      parameters: { resolution: '1080P', audio_setting: 'auto' },
    });
    expect((await gw.balance(customer.userId)).quota).toBe(before.quota - 15 * 1500);
    const unified = await gw.http.get(`/v1/video/generations/${res.body.id}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
    expect(unified.body.data).toMatchObject({ action: 'videoEdit', quota: 22500 });
  });

  itOnSqliteOnly(kind)('video-edit: forwards audio_setting origin and watermark', async () => {
    await submit({
      model: 'beta-1.0-video-edit',
      prompt: 'p',
      size: '720P',
      metadata: { audio_setting: 'origin', watermark: true, input: { media: [{ type: 'video', url: video }] } },
    }).expect(200);
    expect(lastSubmit().json).toMatchObject({ parameters: { resolution: '720P', audio_setting: 'origin', watermark: true } });
  });

  itOnSqliteOnly(kind)('names the actions of the four models', async () => {
    const actions: Record<string, string> = {};
    const bodies = [
      { model: 'beta-1.0-t2v', prompt: 'p' },
      { model: 'beta-1.0-i2v', prompt: 'p', input_reference: image1 },
      { model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [{ type: 'reference_image', url: image1 }] } } },
      { model: 'beta-1.0-video-edit', prompt: 'p', metadata: { input: { media: [{ type: 'video', url: video }] } } },
    ];
    for (const body of bodies) {
      const res = await submit(body).expect(200);
      const task = await gw.http.get(`/v1/video/generations/${res.body.id}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
      actions[body.model] = task.body.data.action;
    }
    expect(actions).toEqual({
      'beta-1.0-t2v': 'textGenerate',
      'beta-1.0-i2v': 'imageGenerate',
      'beta-1.0-r2v': 'referenceGenerate',
      'beta-1.0-video-edit': 'videoEdit',
    });
  });

  itOnSqliteOnly(kind)(
    'truncates long prompts: 5000 Latin, 2500 Chinese, Chinese counting double when mixed; the response says so',
    async () => {
      const long = await submit({ model: 'beta-1.0-t2v', prompt: 'a'.repeat(100_000) }).expect(200);
      expect(long.headers['x-gateway-warning']).toBe(
        'prompt truncated to 5000 characters (family B: at most 5000 non-Chinese or 2500 Chinese characters)',
      );
      expect((lastSubmit().json as { input: { prompt: string } }).input.prompt).toBe('a'.repeat(5000));
      // A prompt within the limit carries no warning.
      expect((await submit({ model: 'beta-1.0-t2v', prompt: 'a'.repeat(5000) }).expect(200)).headers['x-gateway-warning']).toBeUndefined();
      const chinese = await submit({ model: 'beta-1.0-t2v', prompt: '猫'.repeat(2600) }).expect(200);
      expect(chinese.headers['x-gateway-warning']).toMatch(/^prompt truncated to 2500 characters/);
      expect((lastSubmit().json as { input: { prompt: string } }).input.prompt).toBe('猫'.repeat(2500));
      await submit({ model: 'beta-1.0-t2v', prompt: 'b'.repeat(1000) + '狗'.repeat(2400) }).expect(200);
      expect((lastSubmit().json as { input: { prompt: string } }).input.prompt).toBe('b'.repeat(1000) + '狗'.repeat(2000));
    },
  );

  itOnSqliteOnly(kind)(
    "sends the channel model mapping upstream; the customer's properties name only the public model (the admin sees the upstream one)",
    async () => {
      const mappedFake = await startBetaEmulator({ apiKey: 'mapped-key', models: { 'beta-1.0-t2v-plus': 't2v' } });
      const channelId = await gw.createChannel({
        ...betaChannelBody(mappedFake),
        models: ['beta-1.0-t2v'],
        priority: 10,
        model_mapping: { 'beta-1.0-t2v': 'beta-1.0-t2v-plus' },
      });
      try {
        const res = await submit({ model: 'beta-1.0-t2v', prompt: 'mapped' }).expect(200);
        expect(mappedFake.submits()[0].json).toMatchObject({ model: 'beta-1.0-t2v-plus' });
        const task = await gw.http.get(`/v1/video/generations/${res.body.id}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
        expect(task.body.data.properties).toEqual({
          input: 'mapped',
          upstream_model_name: 'beta-1.0-t2v',
          origin_model_name: 'beta-1.0-t2v',
        });
        expect(JSON.stringify(task.body)).not.toContain('beta-1.0-t2v-plus');
        expect((await gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body.unified.data.properties).toMatchObject({
          upstream_model_name: 'beta-1.0-t2v-plus',
        });
      } finally {
        await gw.admin.patch(`/api/admin/channels/${channelId}`, { status: 'disabled' }).expect(200);
        await mappedFake.close();
      }
    },
  );

  itOnSqliteOnly(kind)('documents the unified form in Swagger as a named schema with a success and a failure example', async () => {
    const docs = await gw.http.get('/docs-json').expect(200);
    const schema = docs.body.components.schemas.UnifiedTaskResponse;
    expect(schema.properties.data.$ref ?? schema.properties.data.allOf?.[0]?.$ref).toBe('#/components/schemas/UnifiedTask');
    expect(Object.keys(docs.body.components.schemas.UnifiedTask.properties)).toEqual(
      expect.arrayContaining([
        'id',
        'task_id',
        'platform',
        'user_id',
        'group',
        'channel_id',
        'quota',
        'action',
        'status',
        'fail_reason',
        'result_url',
        'submit_time',
        'start_time',
        'finish_time',
        'created_at',
        'updated_at',
        'progress',
        'properties',
        'data',
      ]),
    );
    const ok = docs.body.paths['/v1/video/generations/{task_id}'].get.responses['200'].content['application/json'];
    expect(ok.schema.$ref).toBe('#/components/schemas/UnifiedTaskResponse');
    expect(ok.examples.success.value.data.status).toBe('SUCCESS');
    expect(ok.examples.failure.value).toMatchObject({ code: 'success', data: { status: 'FAILURE', progress: '100%' } });
    const submit = docs.body.paths['/v1/video/generations'].post;
    expect(submit.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/GenerationSubmitted');
    // One optional Idempotency-Key header, not a second, required spelling of it; and the optional hop count of chained gateways.
    expect(submit.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
        expect.objectContaining({ name: 'X-Gateway-Hops', in: 'header', required: false }),
      ]),
    );
    expect(submit.parameters).toHaveLength(2);
    for (const status of ['400', '401', '402', '403', '429', '503']) {
      expect(submit.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/WrapperError');
    }
  });

  it('returns the first task for a repeated Idempotency-Key, charged once', async () => {
    const before = await gw.balance(customer.userId);
    const body = { model: 'beta-1.0-t2v', prompt: 'once', size: '720P' };
    const first = await submit(body).set('Idempotency-Key', `idem-${kind}`).expect(200);
    const again = await submit(body).set('Idempotency-Key', `idem-${kind}`).expect(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await gw.balance(customer.userId)).quota).toBe(before.quota - 5000);
  });
});
