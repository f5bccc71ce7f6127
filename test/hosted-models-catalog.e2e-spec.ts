import { binaryBody } from './support/binary-body';
import { FalEmulatorServer, startFalEmulator } from './support/fal-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { startOpenAiEmulator } from './support/openai-emulator';
import { ReplicateEmulatorServer, startReplicateEmulator } from './support/replicate-emulator';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
const PER_SECOND = 420;

/** Kling 2.5 Turbo sold once, served by Kling itself or by fal's endpoints of the same model. */
const ANYWHERE = {
  id: 'kling-2-5-anywhere',
  label: 'Kling 2.5 Turbo, wherever it runs',
  modes: ['text-to-video', 'image-to-video'],
  durations: [5, 10],
  default_duration: 5,
  resolutions: ['720p'],
  aspect_ratios: ['16:9', '9:16', '1:1'],
  audio: 'none',
  prices: [{ resolution: '720p', unit: 'second', price: PER_SECOND }],
  routes: [{ platform: 'kling', upstream_model: 'kling-v2-5-turbo' }],
};
const FAL_ROUTE = {
  platform: 'fal',
  upstream_model: {
    'text-to-video': 'fal-ai/kling-video/v2.5-turbo/standard/text-to-video',
    'image-to-video': 'fal-ai/kling-video/v2.5-turbo/standard/image-to-video',
  },
  options: {
    input_map: {
      prompt: 'prompt',
      first_frame: 'image_url',
      seconds: { field: 'duration', as: 'string' },
      aspect_ratio: 'aspect_ratio',
      negative_prompt: 'negative_prompt',
    },
  },
};

/**
 * Hosted-model platforms as an operator uses them: a model served on Kling and on fal under one id
 * (fal serves while Kling's channel is disabled), and models of fal and Replicate added as catalog
 * entries with their input maps, no release, each task's video playing through the gateway's own link.
 */
describeOnSqlite('hosted models in the catalog', (kind) => {
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let fal: FalEmulatorServer;
  let replicate: ReplicateEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    [kling, fal, replicate] = await Promise.all([startKlingEmulator(), startFalEmulator(), startReplicateEmulator()]);
    gw = await startGateway(kind);
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([kling?.close(), fal?.close(), replicate?.close()]);
  });

  const as = () => ({
    post: (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`).send(body),
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${customer.key}`),
  });
  const finish = async (taskId: string) => {
    for (let round = 0; round < 8; round++) {
      gw.clock.advance(15_000);
      await gw.sync();
    }
    return (await as().get(`/v1/videos/${taskId}`).expect(200)).body;
  };
  const playsThroughGateway = async (taskId: string, bytes: Buffer) => {
    expect(await finish(taskId)).toMatchObject({ status: 'completed' });
    const content = await as().get(`/v1/videos/${taskId}/content`).buffer(true).parse(binaryBody).expect(200);
    expect(Buffer.compare(content.body as Buffer, bytes)).toBe(0);
  };

  it('one public model routed on kling and fal: Kling serves it; with its channel disabled, fal does, at the same price', async () => {
    await gw.admin.post('/api/admin/models', ANYWHERE).expect(201);
    const klingChannel = await gw.createChannel({
      name: 'kling',
      platform: 'kling',
      base_url: kling.url,
      api_key: kling.apiKey,
      models: [ANYWHERE.id],
      priority: 10,
    });
    const falChannel = { name: 'fal', platform: 'fal', base_url: fal.url, api_key: fal.apiKey, models: [ANYWHERE.id] };
    // Not routed on fal yet: a fal channel cannot list it.
    expect((await gw.admin.post('/api/admin/channels', falChannel).expect(400)).body.error).toMatchObject({ param: 'models' });
    const patched = await gw.admin.patch(`/api/admin/models/${ANYWHERE.id}`, { routes: [...ANYWHERE.routes, FAL_ROUTE] }).expect(200);
    expect(patched.body.routes).toEqual([ANYWHERE.routes[0], FAL_ROUTE]);
    await gw.createChannel(falChannel);

    const body = { model: ANYWHERE.id, prompt: 'a fox in the snow', seconds: '10', size: '1280x720' };
    const before = await gw.balance(customer.userId);
    const onKling = await as().post('/v1/videos', body).expect(200);
    expect(kling.creates.at(-1)!.body).toMatchObject({ model_name: 'kling-v2-5-turbo', duration: '10', mode: 'std' });
    expect(fal.submits).toHaveLength(0);
    await playsThroughGateway(onKling.body.id, kling.videoBytes);

    await gw.admin.patch(`/api/admin/channels/${klingChannel}`, { status: 'disabled' }).expect(200);
    const creates = kling.creates.length;
    const onFal = await as().post('/v1/videos', body).expect(200);
    expect(kling.creates).toHaveLength(creates);
    expect(fal.submits.at(-1)).toMatchObject({
      endpoint: 'fal-ai/kling-video/v2.5-turbo/standard/text-to-video',
      input: { prompt: 'a fox in the snow', duration: '10', aspect_ratio: '16:9' },
    });
    await playsThroughGateway(onFal.body.id, fal.videoBytes);
    expect(await gw.balance(customer.userId)).toEqual({
      quota: before.quota - 2 * 10 * PER_SECOND,
      used_quota: before.used_quota + 2 * 10 * PER_SECOND,
    });
    const task = (await gw.admin.get(`/api/admin/tasks/${onFal.body.id}`).expect(200)).body;
    expect(task).toMatchObject({ channel_name: 'fal', model: ANYWHERE.id, upstream_model: FAL_ROUTE.upstream_model['text-to-video'] });
  });

  it("an operator adds a fal endpoint and a Replicate model with their input maps, lists them on channels, and a customer's tasks play", async () => {
    // A route option its platform refuses is a 400 naming it, before anything is stored.
    const refused = await gw.admin
      .post('/api/admin/models', {
        ...ANYWHERE,
        id: 'bad-map',
        routes: [
          { platform: 'fal', upstream_model: 'acme/motion-video', options: { input_map: { seconds: { field: 'length', as: 'minutes' } } } },
        ],
      })
      .expect(400);
    expect(refused.body.error).toMatchObject({ param: 'routes[0].options.input_map.seconds.as' });
    const noMap = await gw.admin
      .post('/api/admin/models', { ...ANYWHERE, id: 'no-map', routes: [{ platform: 'replicate', upstream_model: 'acme/lumen' }] })
      .expect(400);
    expect(noMap.body.error).toMatchObject({ param: 'routes[0].options.input_map' });

    fal.defineEndpoint('acme/motion-video', {
      fields: { text: 'string', init_image: 'string', length: [4, 8] },
      required: ['text'],
      output: 'videos',
    });
    await gw.admin
      .post('/api/admin/models', {
        id: 'acme-motion',
        modes: ['text-to-video', 'image-to-video'],
        durations: [4, 8],
        default_duration: 4,
        resolutions: ['720p'],
        aspect_ratios: [],
        audio: 'none',
        prices: [{ resolution: '*', unit: 'clip', price: 900 }],
        routes: [
          {
            platform: 'fal',
            upstream_model: 'acme/motion-video',
            options: { input_map: { prompt: 'text', first_frame: 'init_image', seconds: 'length' }, output: 'videos[0].url' },
          },
        ],
      })
      .expect(201);
    replicate.defineModel('acme/lumen', {
      fields: { prompt: 'string', image: 'string', duration: ['5', '10'], seed: 'integer' },
      required: ['prompt'],
      output: 'list',
    });
    await gw.admin
      .post('/api/admin/models', {
        id: 'lumen-video',
        modes: ['text-to-video', 'image-to-video'],
        durations: [5, 10],
        default_duration: 5,
        resolutions: ['1080p'],
        aspect_ratios: [],
        audio: 'none',
        prices: [{ resolution: '1080p', unit: 'second', price: 300 }],
        routes: [
          {
            platform: 'replicate',
            upstream_model: 'acme/lumen',
            options: { input_map: { prompt: 'prompt', first_frame: 'image', seconds: { field: 'duration', as: 'string' }, seed: 'seed' } },
          },
        ],
      })
      .expect(201);
    await gw.createChannel({ name: 'fal-acme', platform: 'fal', base_url: fal.url, api_key: fal.apiKey, models: ['acme-motion'] });
    await gw.createChannel({
      name: 'replicate',
      platform: 'replicate',
      base_url: replicate.url,
      api_key: replicate.apiKey,
      models: ['lumen-video'],
    });
    const listed = (await as().get('/v1/videos/models').expect(200)).body.data.map((model: { id: string }) => model.id);
    expect(listed).toEqual(expect.arrayContaining(['acme-motion', 'lumen-video']));

    const before = await gw.balance(customer.userId);
    const motion = await as()
      .post('/v1/video/generations', {
        model: 'acme-motion',
        prompt: 'a kite',
        input_reference: 'https://cdn.example.com/kite.png',
        duration: 8,
      })
      .expect(200);
    expect(fal.submits.at(-1)).toMatchObject({
      endpoint: 'acme/motion-video',
      input: { text: 'a kite', length: 8, init_image: 'https://cdn.example.com/kite.png' },
    });
    const lumen = await as().post('/v1/videos', { model: 'lumen-video', prompt: 'a harbour at night', seconds: '10', seed: 3 }).expect(200);
    expect(replicate.creates.at(-1)).toMatchObject({
      model: 'acme/lumen',
      input: { prompt: 'a harbour at night', duration: '10', seed: 3 },
    });
    expect(await gw.balance(customer.userId)).toEqual({
      quota: before.quota - 900 - 10 * 300,
      used_quota: before.used_quota + 900 + 10 * 300,
    });
    await playsThroughGateway(motion.body.id, fal.videoBytes);
    await playsThroughGateway(lumen.body.id, replicate.videoBytes);
    // A field lumen's map does not name is refused for that model, nothing charged.
    const unmapped = await as().post('/v1/videos', { model: 'lumen-video', prompt: 'p', negative_prompt: 'blur' }).expect(400);
    expect(unmapped.body.error).toMatchObject({ param: 'negative_prompt', message: 'negative_prompt is not taken by lumen-video' });
  });

  it("a new fal endpoint from its published schema: the proposed input_map saves as the route, a customer buys it; Replicate's schema and an OpenAI-compatible upstream's models read the same way", async () => {
    fal.defineEndpoint('acme/fresh-video/image-to-video', {
      fields: {
        prompt: 'string',
        image_url: 'string',
        duration: ['5s', '10s'],
        resolution: ['480P', '720P'],
        enable_safety_checker: 'boolean',
      },
      required: ['prompt', 'image_url'],
    });
    const channel = await gw.createChannel({
      name: 'fal-schema',
      platform: 'fal',
      base_url: fal.url,
      api_key: fal.apiKey,
      models: ['kling-v2-5-turbo'],
    });
    const read = await gw.admin.get(`/api/admin/channels/${channel}/schema?upstream_model=acme/fresh-video/image-to-video`).expect(200);
    expect(read.body).toEqual({
      upstream_model: 'acme/fresh-video/image-to-video',
      schema: {
        properties: expect.objectContaining({ duration: expect.objectContaining({ type: 'string', enum: ['5s', '10s'] }) }),
        required: ['prompt', 'image_url'],
      },
      input_map: {
        prompt: 'prompt',
        first_frame: 'image_url',
        seconds: { field: 'duration', as: 'seconds' },
        resolution: { field: 'resolution', values: { '480p': '480P', '720p': '720P' } },
      },
    });
    expect(Object.keys(read.body.schema.properties)).toEqual(['prompt', 'image_url', 'duration', 'resolution', 'enable_safety_checker']);
    await gw.admin
      .post('/api/admin/models', {
        id: 'fresh-video',
        modes: ['image-to-video'],
        durations: [5, 10],
        resolutions: ['720p', '480p'],
        aspect_ratios: [],
        audio: 'none',
        prices: [
          { resolution: '720p', unit: 'second', price: 200 },
          { resolution: '480p', unit: 'second', price: 100 },
        ],
        routes: [{ platform: 'fal', upstream_model: 'acme/fresh-video/image-to-video', options: { input_map: read.body.input_map } }],
      })
      .expect(201);
    await gw.admin.patch(`/api/admin/channels/${channel}`, { models: ['kling-v2-5-turbo', 'fresh-video'] }).expect(200);
    const before = await gw.balance(customer.userId);
    const task = await as()
      .post('/v1/videos', {
        model: 'fresh-video',
        prompt: 'a lantern',
        input_reference: 'https://cdn.example.com/lantern.png',
        seconds: '10',
      })
      .expect(200);
    expect(fal.submits.at(-1)).toMatchObject({
      endpoint: 'acme/fresh-video/image-to-video',
      input: { prompt: 'a lantern', image_url: 'https://cdn.example.com/lantern.png', duration: '10s', resolution: '720P' },
    });
    expect((await gw.balance(customer.userId)).quota).toBe(before.quota - 10 * 200);
    await playsThroughGateway(task.body.id, fal.videoBytes);

    // An endpoint fal does not have is a 404; a platform that publishes no schemas a 409; an unreachable provider a 503.
    await gw.admin.get(`/api/admin/channels/${channel}/schema?upstream_model=acme/nothing-here`).expect(404);
    await gw.admin.get(`/api/admin/channels/${channel}/schema`).expect(400);
    const kling = await gw.createChannel({
      name: 'kling-schema',
      platform: 'kling',
      base_url: fal.url,
      api_key: 'ak:sk',
      models: ['kling-v2-6'],
    });
    await gw.admin.get(`/api/admin/channels/${kling}/schema?upstream_model=x/y`).expect(409);
    await gw.admin.get(`/api/admin/channels/${kling}/upstream-models`).expect(409);
    const gone = await gw.createChannel({
      name: 'fal-gone',
      platform: 'fal',
      base_url: 'http://127.0.0.1:9',
      api_key: fal.apiKey,
      models: ['kling-v2-5-turbo'],
    });
    const unreachable = await gw.admin.get(`/api/admin/channels/${gone}/schema?upstream_model=acme/fresh-video/image-to-video`).expect(503);
    expect(unreachable.headers['retry-after']).toBe('5');
    expect(JSON.stringify(unreachable.body)).not.toContain('127.0.0.1');

    const replicateChannel = await gw.createChannel({
      name: 'replicate-schema',
      platform: 'replicate',
      base_url: replicate.url,
      api_key: replicate.apiKey,
      models: ['kling-v2-5-turbo'],
    });
    const kwai = await gw.admin
      .get(`/api/admin/channels/${replicateChannel}/schema?upstream_model=kwaivgi/kling-v2.5-turbo-pro`)
      .expect(200);
    expect(kwai.body.input_map).toEqual({
      prompt: 'prompt',
      first_frame: 'start_image',
      seconds: 'duration',
      aspect_ratio: 'aspect_ratio',
      negative_prompt: 'negative_prompt',
    });
    const wrongKey = await gw.createChannel({
      name: 'replicate-wrong',
      platform: 'replicate',
      base_url: replicate.url,
      api_key: 'r8_wrong',
      models: ['kling-v2-5-turbo'],
    });
    const refused = await gw.admin.get(`/api/admin/channels/${wrongKey}/schema?upstream_model=kwaivgi/kling-v2.5-turbo-pro`).expect(409);
    expect(refused.body.error.message).toBe('channel replicate-wrong was refused by its provider: check its api_key and account');

    const openai = await startOpenAiEmulator();
    try {
      const compatible = await gw.createChannel({
        name: 'sora-upstream',
        platform: 'openai',
        base_url: `${openai.url}/v1`,
        api_key: openai.apiKey,
        models: ['sora-2'],
      });
      expect((await gw.admin.get(`/api/admin/channels/${compatible}/upstream-models`).expect(200)).body).toEqual({
        data: [{ id: 'sora-2' }, { id: 'sora-2-pro' }],
      });
    } finally {
      await openai.close();
    }
  });
});
