import { ALPHA_MODEL_IDS, alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { BETA_MODEL_IDS, betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 10_000_000;

/** alpha/v7: 1 to 20 s (the builtin models stop at 15), 1080p first, portrait first, audio; 20 s refused at 1080p (a route option). */
const ALPHA_V7 = {
  id: 'alpha/v7',
  modes: ['text-to-video', 'image-to-video'],
  durations: { min: 1, max: 20 },
  default_duration: 6,
  resolutions: ['1080p', '720p'],
  aspect_ratios: ['9:16', '16:9', '1:1'],
  audio: 'optional',
  prompt_max_length: 2048,
  prices: [
    { resolution: '1080p', unit: 'second', price: 300, audio_price: 450 },
    { resolution: '720p', unit: 'second', price: 200 },
  ],
  routes: [{ platform: 'alpha', upstream_model: 'v7', options: { no_1080p_durations: [20] } }],
};

/** beta-2.0-t2v: 2 to 20 s (the builtin models: 3 to 15), 480P first (theirs: 720P or 1080P), portrait first. */
const BETA_2 = {
  id: 'beta-2.0-t2v',
  modes: ['text-to-video'],
  durations: { min: 2, max: 20 },
  default_duration: 5,
  resolutions: ['480p', '720p', '1080p'],
  aspect_ratios: ['9:16', '16:9', '1:1'],
  audio: 'none',
  prices: [
    { resolution: '480p', unit: 'second', price: 50 },
    { resolution: '720p', unit: 'second', price: 100 },
    { resolution: '1080p', unit: 'second', price: 200 },
  ],
  routes: [{ platform: 'beta', upstream_model: 'beta-2.0-t2v' }],
};

/** gamma-2-1: a dated release of the provider's model; 1080p, 6 s and 9:16 by default, prompts up to 8000 characters (the builtin: 5000). */
const GAMMA_2_1 = {
  id: 'gamma-2-1',
  modes: ['text-to-video', 'reference-to-video'],
  durations: [4, 6, 8, 12],
  default_duration: 6,
  resolutions: ['1080p', '720p'],
  aspect_ratios: ['9:16', '16:9'],
  audio: 'none',
  max_reference_images: 4,
  prompt_max_length: 8000,
  prices: [
    { resolution: '1080p', unit: 'second', price: 2500 },
    { resolution: '720p', unit: 'second', price: 1200 },
  ],
  routes: [{ platform: 'gamma', upstream_model: 'gamma-2-0-260115' }],
};

/** acme-video-2 on an OpenAI-compatible server: 10, 60 or 150 s (the old rule stopped at 120), two sizes, the first the default. */
const ACME = {
  id: 'acme-video-2',
  modes: ['text-to-video', 'image-to-video'],
  durations: [10, 60, 150],
  default_duration: 10,
  resolutions: ['1920x1080', '1080x1920'],
  aspect_ratios: [],
  audio: 'none',
  prompt_max_length: 4000,
  prices: [
    { resolution: '1920x1080', unit: 'second', price: 40 },
    { resolution: '1080x1920', unit: 'second', price: 60 },
  ],
  routes: [{ platform: 'openai', upstream_model: 'acme-v2-upstream' }],
};

/**
 * Families A, B, C and O read a model's catalog entry: an operator adds a new model of each
 * platform (`POST /api/admin/models`) and lists it on a channel; a submit inside the entry but
 * outside the builtin models' limits reaches the family's emulator with the wire fields the entry
 * gives, charged exactly what the quote said; outside the entry, a 400 naming the field, nothing charged.
 */
describeOnSqlite('model catalog: new models of families A, B, C and O', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  let gamma: GammaEmulatorServer;
  let openai: OpenAiEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    [alpha, beta, gamma, openai] = await Promise.all([
      startAlphaEmulator(),
      startBetaEmulator(),
      startGammaEmulator(),
      startOpenAiEmulator(),
    ]);
    gw = await startGateway(kind);
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([alpha?.close(), beta?.close(), gamma?.close(), openai?.close()]);
  });

  const post = (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`).send(body);
  const balance = () => gw.balance(customer.userId);

  /** Quoted, then submitted: charged exactly the quote (the unified quote answers inside its wrapper). */
  async function chargedAsQuoted(path: string, body: object): Promise<{ quote: Record<string, unknown>; task: Record<string, unknown> }> {
    const quoted = (await post(`${path}/quote`, body).expect(200)).body;
    const quote = path === '/v1/videos' ? quoted : quoted.data;
    const before = await balance();
    const task = (await post(path, body).expect(200)).body;
    expect(await balance()).toEqual({ quota: before.quota - quote.quota, used_quota: before.used_quota + quote.quota });
    return { quote, task };
  }

  /** Refused with a 400 naming `param` (the flat form's `param`; the unified form's message), nothing charged, nothing sent. */
  async function refused(path: string, body: object, param: string, message: string, sent: () => number): Promise<void> {
    const [before, sentBefore] = [await balance(), sent()];
    const res = await post(path, body).expect(400);
    if (path === '/v1/videos') expect(res.body.error).toMatchObject({ param, message });
    else expect(res.body).toEqual({ code: 'invalid_request', message, data: null });
    expect(await balance()).toEqual(before);
    expect(sent()).toBe(sentBefore);
  }

  it('family A: alpha/v7 at 18 s with audio reaches the provider as v7, 1080p and 9:16 by default; 20 s at 1080p is refused (route option)', async () => {
    const badOption = await gw.admin
      .post('/api/admin/models', { ...ALPHA_V7, routes: [{ platform: 'alpha', upstream_model: 'v7', options: { fast_motion: 'yes' } }] })
      .expect(400);
    expect(badOption.body.error).toMatchObject({
      param: 'routes[0].options.fast_motion',
      message: 'routes[0].options.fast_motion must be true or false',
    });
    await gw.admin.post('/api/admin/models', ALPHA_V7).expect(201);
    await gw.createChannel(alphaChannelBody(alpha, { models: [...ALPHA_MODEL_IDS, 'alpha/v7'] }));

    const body = { model: 'alpha/V7', prompt: 'a lighthouse at dusk', seconds: '18', metadata: { generate_audio_switch: true } };
    const { quote, task } = await chargedAsQuoted('/v1/videos', body);
    expect(quote).toMatchObject({ model: 'alpha/v7', seconds: 18, resolution: '1080p', audio: true, quota: 18 * 450 });
    expect(task).toMatchObject({ model: 'alpha/v7', status: 'queued' });
    expect(alpha.calls('generate').at(-1)!.json).toEqual({
      model: 'v7',
      prompt: 'a lighthouse at dusk',
      duration: 18,
      quality: '1080p',
      aspect_ratio: '9:16',
      generate_audio_switch: true,
    });

    const generates = () => alpha.calls('generate').length;
    await refused('/v1/videos', { ...body, seconds: '20' }, 'seconds', 'combination 1080p / 20 not supported', generates);
    await refused(
      '/v1/videos',
      { ...body, seconds: '21' },
      'seconds',
      'seconds must be a whole number of seconds from 1 to 20 for alpha/v7',
      generates,
    );
    await refused('/v1/videos', { ...body, resolution: '540P' }, 'resolution', 'resolution: alpha/v7 renders 1080p, 720p only', generates);
    await refused(
      '/v1/videos',
      { ...body, metadata: { aspect_ratio: '21:9' } },
      'metadata.aspect_ratio',
      'model v7 does not support aspect_ratio 21:9 (allowed: 9:16, 16:9, 1:1)',
      generates,
    );
    await refused(
      '/v1/videos',
      { ...body, metadata: { motion_mode: 'fast' } },
      'metadata.motion_mode',
      'model v7 does not support fast motion',
      generates,
    );
  });

  it('family B: beta-2.0-t2v at 20 s reaches the provider at 480P and 9:16 by default; 21 s is refused in the interface words', async () => {
    await gw.admin.post('/api/admin/models', BETA_2).expect(201);
    await gw.createChannel(betaChannelBody(beta, { models: [...BETA_MODEL_IDS, 'beta-2.0-t2v'] }));

    const body = { model: 'beta-2.0-t2v', prompt: 'a paper boat on a rainy street', duration: 20 };
    const { quote, task } = await chargedAsQuoted('/v1/video/generations', body);
    expect(quote).toMatchObject({ model: 'beta-2.0-t2v', seconds: 20, resolution: '480p', quota: 20 * 50 });
    expect(task).toMatchObject({ model: 'beta-2.0-t2v', status: 'queued' });
    expect(beta.submits().at(-1)!.json).toEqual({
      model: 'beta-2.0-t2v',
      input: { prompt: 'a paper boat on a rainy street' },
      parameters: { resolution: '480P', ratio: '9:16', duration: 20 },
    });
    // The flat form's pixel size maps to the model's nearest size and ratio.
    const flat = await chargedAsQuoted('/v1/videos', { model: 'beta-2.0-t2v', prompt: 'p', seconds: '2', size: '1280x720' });
    expect(flat.quote).toMatchObject({ seconds: 2, resolution: '720p', quota: 2 * 100 });
    expect(beta.submits().at(-1)!.json).toMatchObject({ parameters: { resolution: '720P', ratio: '16:9', duration: 2 } });

    const submits = () => beta.submits().length;
    await refused(
      '/v1/video/generations',
      { ...body, duration: 21 },
      'duration',
      'duration must be an integer between 2 and 20 (seconds)',
      submits,
    );
    await refused(
      '/v1/video/generations',
      { ...body, metadata: { ratio: '4:3' } },
      'metadata.ratio',
      'metadata.ratio must be one of 9:16, 16:9, 1:1',
      submits,
    );
    await refused(
      '/v1/video/generations',
      { ...body, metadata: { input: { media: [{ type: 'reference_image', url: 'https://cdn.example/a.png' }] } } },
      'metadata.input.media[0]',
      'beta-2.0-t2v accepts no media; metadata.input.media[0] is of type reference_image',
      submits,
    );
  });

  it('family C: gamma-2-1 with a 6000-character prompt reaches the provider as its dated release, 6 s, 1080p and 9:16 by default', async () => {
    await gw.admin.post('/api/admin/models', GAMMA_2_1).expect(201);
    await gw.createChannel(gamma.channelBody({ models: ['gamma-2-0', 'gamma-2-0-fast', 'gamma-2-1'] }));

    const prompt = 'the presenter waves at the camera '.repeat(200).slice(0, 6000);
    const { quote, task } = await chargedAsQuoted('/v1/video/generations', { model: 'gamma-2-1', prompt });
    expect(quote).toMatchObject({ model: 'gamma-2-1', seconds: 6, resolution: '1080p', quota: 6 * 2500 });
    expect(task).toMatchObject({ model: 'gamma-2-1', status: 'queued' });
    expect(gamma.submits.at(-1)!.json).toEqual({
      model: 'gamma-2-0-260115',
      content: [{ type: 'text', text: prompt }],
      resolution: '1080p',
      ratio: '9:16',
      duration: 6,
    });

    const submits = () => gamma.submits.length;
    const body = { model: 'gamma-2-1', prompt: 'p' };
    await refused(
      '/v1/video/generations',
      { ...body, duration: 5 },
      'duration',
      'duration must be 4, 6, 8 or 12 seconds for gamma-2-1',
      submits,
    );
    await refused(
      '/v1/video/generations',
      { ...body, metadata: { resolution: '480p' } },
      'metadata.resolution',
      'metadata.resolution 480p is not supported by gamma-2-1 (use 720p or 1080p)',
      submits,
    );
    await refused(
      '/v1/video/generations',
      { ...body, prompt: 'x'.repeat(8001) },
      'prompt',
      'prompt must be at most 8000 characters',
      submits,
    );
  });

  it('family O: acme-video-2 at 150 s reaches the server in its first size; a size it does not list is refused', async () => {
    await gw.admin.post('/api/admin/models', ACME).expect(201);
    await gw.createChannel({
      name: 'acme',
      platform: 'openai',
      base_url: `${openai.url}/v1`,
      api_key: openai.apiKey,
      models: ['acme-video-2'],
    });

    const body = { model: 'acme-video-2', prompt: 'a kite over the dunes', seconds: '150' };
    const { quote, task } = await chargedAsQuoted('/v1/videos', body);
    expect(quote).toMatchObject({ model: 'acme-video-2', seconds: 150, resolution: '1920x1080', quota: 150 * 40 });
    expect(task).toMatchObject({ model: 'acme-video-2', status: 'queued' });
    expect((await openai.submits()).at(-1)!.json).toEqual({
      model: 'acme-v2-upstream',
      prompt: 'a kite over the dunes',
      seconds: '150',
      size: '1920x1080',
    });
    const portrait = await chargedAsQuoted('/v1/videos', { ...body, seconds: '10', size: '1080x1920' });
    expect(portrait.quote).toMatchObject({ resolution: '1080x1920', quota: 10 * 60 });

    const sent = openai.requests.length;
    const submits = () => openai.requests.length - sent;
    await refused('/v1/videos', { ...body, seconds: '120' }, 'seconds', 'seconds must be 10, 60 or 150 seconds for acme-video-2', submits);
    await refused(
      '/v1/videos',
      { ...body, size: '1280x720' },
      'size',
      'size must be one of 1920x1080, 1080x1920 for acme-video-2',
      submits,
    );
  });

  it('lists the four new models to the customer', async () => {
    const listed = (await gw.http.get('/v1/videos/models').set('Authorization', `Bearer ${customer.key}`).expect(200)).body.data;
    expect(listed.map((model: { id: string }) => model.id)).toEqual(
      expect.arrayContaining(['alpha/v7', 'beta-2.0-t2v', 'gamma-2-1', 'acme-video-2']),
    );
    expect(listed.find((model: { id: string }) => model.id === 'alpha/v7')).toMatchObject({
      durations: { min: 1, max: 20 },
      default_duration: 6,
    });
  });
});
