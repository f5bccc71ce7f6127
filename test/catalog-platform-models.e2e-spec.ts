import { MinimaxEmulatorServer, startMinimaxEmulator } from './support/minimax-emulator';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';
import { startVeoEmulator, VeoEmulatorServer } from './support/veo-emulator';

const QUOTA = 10_000_000;

/** Veo: a model with lengths from 4 to 12 s (the builtin ones make 4, 6 or 8), 9:16 first. */
const VEO_32 = {
  id: 'veo-3.2-generate-preview',
  modes: ['text-to-video', 'image-to-video'],
  durations: { min: 4, max: 12 },
  default_duration: 8,
  resolutions: ['720p', '1080p'],
  aspect_ratios: ['9:16', '16:9'],
  audio: 'always',
  prices: [
    { resolution: '720p', unit: 'second', price: 3_000 },
    { resolution: '1080p', unit: 'second', price: 5_000 },
  ],
  routes: [{ platform: 'veo', upstream_model: 'veo-3.2-generate-preview' }],
};
/** MiniMax: T2V-01-Director at 720P (the builtin ones make 512P, 768P, 1080P), sold per 6 s clip under an id of the operator's. */
const MINIMAX_DIRECTOR = {
  id: 'minimax-director',
  modes: ['text-to-video'],
  durations: [6],
  resolutions: ['720p'],
  aspect_ratios: [],
  audio: 'none',
  prompt_max_length: 2000,
  prices: [{ resolution: '720p', unit: 'clip', duration: 6, price: 4_300 }],
  routes: [{ platform: 'minimax', upstream_model: 'T2V-01-Director' }],
};
/** Runway: gen5, 2 to 15 s (gen4.5 makes 2 to 10) and text-to-video at every 720p ratio (gen4.5's only at 16:9 and 9:16). */
const RUNWAY_GEN5 = {
  id: 'gen5',
  modes: ['text-to-video', 'image-to-video'],
  durations: { min: 2, max: 15 },
  default_duration: 5,
  resolutions: ['720p'],
  aspect_ratios: ['16:9', '9:16', '4:3', '3:4', '1:1', '21:9'],
  audio: 'none',
  prices: [{ resolution: '720p', unit: 'second', price: 1_500 }],
  routes: [{ platform: 'runway', upstream_model: 'gen5' }],
};

/**
 * A new model of a platform the gateway speaks is a catalog entry, with no release: for Veo,
 * MiniMax and Runway, an operator adds one (POST /api/admin/models), lists it on a channel, and a
 * submit outside the builtin models' limits but inside its entry reaches the provider with the
 * wire fields its entry makes, charged exactly what the quote said; outside its entry it is a 400
 * naming the field, nothing charged, nothing sent.
 */
describeOnSqlite('catalog: new Veo, MiniMax and Runway models from their entries alone', (kind) => {
  let gw: TestGateway;
  let veo: VeoEmulatorServer;
  let minimax: MinimaxEmulatorServer;
  let runway: RunwayEmulatorServer;
  let customer: { userId: number; key: string };
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    [veo, minimax, runway] = await Promise.all([startVeoEmulator(), startMinimaxEmulator(), startRunwayEmulator()]);
    gw = await startGateway(kind);
    channels.veo = await gw.createChannel({
      name: 'veo-main',
      platform: 'veo',
      base_url: veo.url,
      api_key: veo.apiKey,
      models: ['veo-3.1-generate-preview'],
    });
    channels.minimax = await gw.createChannel({
      name: 'minimax-main',
      platform: 'minimax',
      base_url: minimax.url,
      api_key: minimax.apiKey,
      models: ['MiniMax-Hailuo-2.3'],
    });
    channels.runway = await gw.createChannel({
      name: 'runway-main',
      platform: 'runway',
      base_url: runway.url,
      api_key: runway.apiKey,
      models: ['gen4.5'],
    });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([veo?.close(), minimax?.close(), runway?.close()]);
  });

  const post = (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`).send(body);
  const balance = () => gw.balance(customer.userId);

  /** The operator adds the entry and lists it on the platform's channel, next to the builtin model already there. */
  async function addModel(entry: { id: string }, platform: string, builtin: string): Promise<void> {
    const created = await gw.admin.post('/api/admin/models', entry).expect(201);
    expect(created.body).toMatchObject({ id: entry.id, source: 'custom' });
    await gw.admin.patch(`/api/admin/channels/${channels[platform]}`, { models: [builtin, entry.id] }).expect(200);
  }

  /** Quoted, then submitted: charged exactly the quote; answers the task. */
  async function submitAsQuoted(body: object, quota: number): Promise<string> {
    const quote = await post('/v1/videos/quote', body).expect(200);
    expect(quote.body.quota).toBe(quota);
    const before = await balance();
    const submitted = await post('/v1/videos', body).expect(200);
    expect(submitted.body).toMatchObject({ status: 'queued' });
    expect(await balance()).toEqual({ quota: before.quota - quota, used_quota: before.used_quota + quota });
    return submitted.body.id;
  }

  /** Refused on the quote and the submit alike: a 400 naming the field, nothing charged, nothing sent. */
  async function refused(body: object, param: string, sent: () => number, message?: string): Promise<void> {
    const before = await balance();
    const calls = sent();
    for (const path of ['/v1/videos/quote', '/v1/videos']) {
      const res = await post(path, body).expect(400);
      expect(res.body.error).toMatchObject({ param, ...(message ? { message } : {}) });
    }
    expect(await balance()).toEqual(before);
    expect(sent()).toBe(calls);
  }

  /** The task reaches its end through the provider's answers. */
  async function finished(taskId: string): Promise<void> {
    for (let round = 0; round < 6; round++) {
      gw.clock.advance(11_000);
      await gw.sync();
    }
    const task = (await gw.http.get(`/v1/videos/${taskId}`).set('Authorization', `Bearer ${customer.key}`).expect(200)).body;
    expect(task).toMatchObject({ status: 'completed' });
  }

  it('Veo: veo-3.2 for 10 s at 9:16 (its entry: 4 to 12 s) reaches Veo as durationSeconds 10, aspectRatio 9:16, charged as quoted', async () => {
    await addModel(VEO_32, 'veo', 'veo-3.1-generate-preview');
    const taskId = await submitAsQuoted(
      { model: 'veo-3.2-generate-preview', prompt: 'a paper boat on a rainy street', seconds: '10' },
      10 * 3_000,
    );
    const sent = veo.submits().at(-1)!;
    expect(sent.path).toBe('/v1beta/models/veo-3.2-generate-preview:predictLongRunning');
    expect(sent.json).toEqual({
      instances: [{ prompt: 'a paper boat on a rainy street' }],
      parameters: { aspectRatio: '9:16', durationSeconds: 10, resolution: '720p', sampleCount: 1 },
    });
    await finished(taskId);

    const submits = () => veo.submits().length;
    const model = 'veo-3.2-generate-preview';
    await refused(
      { model, prompt: 'p', seconds: '13' },
      'seconds',
      submits,
      'seconds must be a whole number of seconds from 4 to 12 for veo-3.2-generate-preview',
    );
    await refused({ model, prompt: 'p', aspect_ratio: '1:1' }, 'aspect_ratio', submits);
    await refused({ model, prompt: 'p', resolution: '4k', seconds: '8' }, 'resolution', submits);
    // Veo's own rule stays: 1080p is made at 8 s only.
    await refused({ model, prompt: 'p', resolution: '1080p', seconds: '10' }, 'seconds', submits);
    await refused({ model, input_reference: 'https://example.com/f.png', last_frame: 'https://example.com/l.png' }, 'last_frame', submits);
  });

  it('MiniMax: a 720P Director model under the operator id reaches MiniMax as its route upstream model, resolution 720P, charged per clip', async () => {
    await addModel(MINIMAX_DIRECTOR, 'minimax', 'MiniMax-Hailuo-2.3');
    const taskId = await submitAsQuoted({ model: 'minimax-director', prompt: 'a storm over the sea [Truck left]' }, 4_300);
    expect(minimax.submits().at(-1)).toEqual({
      model: 'T2V-01-Director',
      prompt: 'a storm over the sea [Truck left]',
      duration: 6,
      resolution: '720P',
    });
    await finished(taskId);

    const submits = () => minimax.submits().length;
    await refused(
      { model: 'minimax-director', prompt: 'p', resolution: '768P' },
      'resolution',
      submits,
      'resolution must be one of 720P for minimax-director text-to-video',
    );
    await refused(
      { model: 'minimax-director', prompt: 'p', seconds: '10' },
      'seconds',
      submits,
      'seconds must be 6 seconds for minimax-director',
    );
    await refused({ model: 'minimax-director', prompt: 'p', input_reference: 'https://example.com/f.png' }, 'input_reference', submits);
  });

  it('Runway: gen5 for 12 s at 1:1 text-to-video (its entry: 2 to 15 s, every ratio) reaches Runway as ratio 960:960, charged as quoted', async () => {
    const badOption = await gw.admin
      .post('/api/admin/models', { ...RUNWAY_GEN5, routes: [{ platform: 'runway', upstream_model: 'gen5', options: { turbo: true } }] })
      .expect(400);
    expect(badOption.body.error).toMatchObject({ param: 'routes[0].options.turbo' });
    await addModel(RUNWAY_GEN5, 'runway', 'gen4.5');
    const taskId = await submitAsQuoted({ model: 'gen5', prompt: 'a lighthouse at dusk', seconds: '12', aspect_ratio: '1:1' }, 12 * 1_500);
    const sent = runway.submits().at(-1)!;
    expect(sent.path).toBe('/v1/text_to_video');
    expect(sent.json).toEqual({ model: 'gen5', promptText: 'a lighthouse at dusk', ratio: '960:960', duration: 12 });
    await finished(taskId);

    const submits = () => runway.submits().length;
    await refused(
      { model: 'gen5', prompt: 'p', seconds: '16' },
      'seconds',
      submits,
      'seconds must be a whole number of seconds from 2 to 15 for gen5',
    );
    await refused({ model: 'gen5', prompt: 'p', resolution: '1080p' }, 'resolution', submits);
    await refused({ model: 'gen5', prompt: 'p', negative_prompt: 'blur' }, 'negative_prompt', submits);
    // The builtin gen4.5 keeps its own limits.
    await refused({ model: 'gen4.5', prompt: 'p', aspect_ratio: '1:1' }, 'aspect_ratio', submits);
  });
});
