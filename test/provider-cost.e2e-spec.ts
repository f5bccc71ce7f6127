import { readFileSync } from 'node:fs';
import { shapedSampleVideo } from '../src/families/simulator-shared/shaped-sample';
import { FalEmulatorServer, startFalEmulator } from './support/fal-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { describeEachDatabase } from './support/test-databases';

/** What the customer pays per second (quota; 10,000 quota is 1 USD), and what the provider charges the operator (USD). */
const PRICE = { '854x480': 500, '1280x720': 1_000 };
const COST = [
  { resolution: '1280x720', unit: 'second', usd: 0.0375 },
  { resolution: '854x480', unit: 'second', usd: 0.0125, audio_usd: 0.02 },
];
const FAL_MODEL = 'fal-kling-v2-5-turbo-pro';

interface UsageRow {
  key: string | number | null;
  name?: string | null;
  tasks: number;
  usd_charged: number;
  usd_refunded: number;
  provider_cost_usd: number;
  margin_usd: number;
  tasks_without_cost: number;
}

/**
 * What a video costs the operator, end to end: a catalog route's `cost` (USD, `prices`' shape) priced at what
 * the provider delivered, and a fal channel's `settings.usd_per_unit` times the billable units fal reported;
 * each settled task's cost in the operator's usage report (and its margin), in the admin dashboard's margin
 * tables, and never in what a customer sees of the models.
 */
describeEachDatabase('what a video costs the operator', (kind) => {
  let gw: TestGateway;
  let openai: OpenAiEmulatorServer;
  let fal: FalEmulatorServer;
  let customer: { userId: number; key: string };
  let studioChannel: number;
  let falChannel: number;

  beforeAll(async () => {
    openai = await startOpenAiEmulator();
    fal = await startFalEmulator();
    gw = await startGateway(kind);
    const created = await gw.admin
      .post('/api/admin/models', {
        id: 'costed-clip',
        modes: ['text-to-video'],
        durations: { min: 1, max: 20 },
        default_duration: 4,
        resolutions: Object.keys(PRICE),
        aspect_ratios: [],
        audio: 'none',
        prices: Object.entries(PRICE).map(([resolution, price]) => ({ resolution, unit: 'second', price })),
        routes: [{ platform: 'openai', upstream_model: 'costed-clip', cost: COST }],
      })
      .expect(201);
    expect(created.body.routes).toEqual([{ platform: 'openai', upstream_model: 'costed-clip', cost: COST }]);
    studioChannel = await gw.createChannel({
      name: 'studio',
      platform: 'openai',
      base_url: `${openai.url}/v1`,
      api_key: openai.apiKey,
      models: ['costed-clip'],
    });
    falChannel = await gw.createChannel({
      name: 'fal-main',
      platform: 'fal',
      base_url: fal.url,
      api_key: fal.apiKey,
      models: [FAL_MODEL],
      settings: { usd_per_unit: 0.07 },
    });
    customer = await gw.createCustomer({ quota: 1_000_000 });
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    await openai?.close();
    await fal?.close();
  });

  /** Submits, lets the provider finish and the gateway store and settle the video; the task as its customer sees it. */
  async function finished(body: object) {
    const submitted = await gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send(body).expect(200);
    const id = submitted.body.id as string;
    for (let round = 0; round < 8; round++) {
      gw.clock.advance(6_000);
      await gw.sync();
      const task = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${customer.key}`).expect(200)).body;
      if (task.status === 'completed' || task.status === 'failed') return task;
    }
    throw new Error(`task ${id} did not finish`);
  }

  const report = async (groupBy: 'model' | 'channel'): Promise<UsageRow[]> =>
    (await gw.admin.get(`/api/admin/usage?group_by=${groupBy}`).expect(200)).body.data;
  const micro = (usd: number) => Math.round(usd * 1e6) / 1e6;

  it("refuses a route cost that makes no sense, and a channel's usd_per_unit that is no price: a 400 naming the field", async () => {
    const model = (cost: object[]) => ({
      id: 'refused-clip',
      modes: ['text-to-video'],
      durations: [5],
      resolutions: ['720p'],
      aspect_ratios: [],
      audio: 'none',
      prices: [{ resolution: '720p', unit: 'second', price: 100 }],
      routes: [{ platform: 'openai', upstream_model: 'x', cost }],
    });
    const refused = async (cost: object[]) => (await gw.admin.post('/api/admin/models', model(cost)).expect(400)).body.error;
    expect(
      await refused([
        { resolution: '720p', unit: 'second', usd: 0.05 },
        { resolution: '*', unit: 'clip', usd: -1 },
      ]),
    ).toMatchObject({ param: 'routes[0].cost[1].usd', message: expect.stringContaining('routes[0].cost[1].usd') });
    expect(await refused([{ resolution: '720p', unit: 'second', usd: 'cheap' }])).toMatchObject({
      param: 'routes[0].cost[0].usd',
      message: 'routes[0].cost[0].usd must be a number (USD)',
    });
    expect(await refused([{ resolution: '720p', unit: 'hour', usd: 1 }])).toMatchObject({ param: 'routes[0].cost[0].unit' });
    expect(await refused([{ resolution: '1080p', unit: 'second', usd: 0.1 }])).toMatchObject({
      param: 'routes[0].cost[0].resolution',
      message: 'routes[0].cost[0].resolution must be * or one of resolutions (720p)',
    });
    await gw.admin.get('/api/admin/models/refused-clip').expect(404);

    const patched = await gw.admin.patch(`/api/admin/channels/${falChannel}`, { settings: { usd_per_unit: -0.5 } }).expect(400);
    expect(patched.body.error).toMatchObject({ param: 'settings.usd_per_unit', message: 'settings.usd_per_unit must not be less than 0' });
    const text = await gw.admin.patch(`/api/admin/channels/${falChannel}`, { settings: { usd_per_unit: '0.07' } }).expect(400);
    expect(text.body.error).toMatchObject({ param: 'settings.usd_per_unit', message: 'settings.usd_per_unit must be a number' });
    expect((await gw.admin.get(`/api/admin/channels/${falChannel}`).expect(200)).body.settings).toEqual({ usd_per_unit: 0.07 });
    const platforms = (await gw.admin.get('/api/admin/platforms').expect(200)).body.data as Array<{
      platform: string;
      settings: Array<{ name: string; type: string }>;
    }>;
    expect(platforms.find((p) => p.platform === 'vidu')!.settings.find((s) => s.name === 'usd_per_unit')).toMatchObject({
      type: 'number',
      min: 0,
      description: { en: expect.stringContaining("Vidu's credits") },
    });
  });

  it("the route's cost at what was delivered: the usage report's provider cost and margin per model and per channel", async () => {
    // Asked 4 s at 1280x720 (4,000 quota, $0.40), delivered 2 s: $0.20 refunded, the provider's 2 s cost $0.075.
    openai.serveVideo(readFileSync(await shapedSampleVideo({ seconds: 2, width: 1280, height: 720, audio: false })));
    const task = await finished({ model: 'costed-clip', prompt: 'a lighthouse', seconds: '4', size: '1280x720' });
    expect(task).toMatchObject({ status: 'completed', usage: { seconds: 2, resolution: '1280x720', quota: 2_000, settled: 'delivered' } });
    // The customer sees what they paid, never what the provider cost.
    expect(JSON.stringify(task)).not.toMatch(/provider_cost|"cost"|0\.075/);

    const byModel = (await report('model')).find((row) => row.key === 'costed-clip');
    expect(byModel).toEqual({
      key: 'costed-clip',
      tasks: 1,
      seconds: 2,
      quota: 2_000,
      usd_charged: 0.4,
      usd_refunded: 0.2,
      provider_cost_usd: 0.075,
      margin_usd: 0.125,
      tasks_without_cost: 0,
    });
    expect((await report('channel')).find((row) => row.key === studioChannel)).toMatchObject({
      name: 'studio',
      provider_cost_usd: 0.075,
      margin_usd: 0.125,
    });
  });

  it("the channel's usd_per_unit times fal's billable units, before any route cost", async () => {
    const task = await finished({ model: FAL_MODEL, prompt: 'a harbour at dawn', seconds: '5' });
    expect(task.status).toBe('completed');
    // fal reported 5 billable units (its seconds); the channel says one costs $0.07.
    const row = (await report('model')).find((candidate) => candidate.key === FAL_MODEL)!;
    expect(row).toMatchObject({ tasks: 1, provider_cost_usd: 0.35, tasks_without_cost: 0 });
    expect(row.margin_usd).toBe(micro(row.usd_charged - row.usd_refunded - 0.35));
    expect((await report('channel')).find((candidate) => candidate.key === falChannel)).toMatchObject({
      name: 'fal-main',
      provider_cost_usd: 0.35,
    });
  });

  it('the admin dashboard shows the margin per channel and per model, the ones that charged the most first', async () => {
    const dashboard = (await gw.admin.get('/api/admin/dashboard?range=24h').expect(200)).body;
    const charged = (rows: UsageRow[]) => rows.map((row) => row.usd_charged);
    expect(charged(dashboard.margin.by_model)).toEqual([...charged(dashboard.margin.by_model)].sort((a, b) => b - a));
    expect(dashboard.margin.by_model).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'costed-clip', usd_charged: 0.4, usd_refunded: 0.2, provider_cost_usd: 0.075, margin_usd: 0.125 }),
        expect.objectContaining({ key: FAL_MODEL, provider_cost_usd: 0.35 }),
      ]),
    );
    expect(dashboard.margin.by_channel).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: studioChannel, name: 'studio', provider_cost_usd: 0.075, margin_usd: 0.125 }),
        expect.objectContaining({ key: falChannel, name: 'fal-main', provider_cost_usd: 0.35 }),
      ]),
    );
    expect(dashboard.margin.by_channel).toHaveLength(2);
  });

  it("shows a route's cost to the operator only: never in a customer's model lists", async () => {
    const admin = (await gw.admin.get('/api/admin/models/costed-clip').expect(200)).body;
    expect(admin.routes[0].cost).toEqual(COST);
    expect(
      (await gw.admin.get('/api/admin/models/export').expect(200)).body.models.find((m: { id: string }) => m.id === 'costed-clip').routes[0]
        .cost,
    ).toEqual(COST);

    const asCustomer = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${customer.key}`).expect(200);
    const videoModels = (await asCustomer('/v1/videos/models')).body;
    expect(videoModels.data.map((model: { id: string }) => model.id)).toContain('costed-clip');
    const openaiModels = (await asCustomer('/v1/models')).body;
    expect(openaiModels.data.map((model: { id: string }) => model.id)).toContain('costed-clip');

    const username = `costed_${kind}_${Date.now()}`;
    await gw.admin.post('/api/admin/users', { username, password: 'correct-horse', quota: 0 }).expect(201);
    const session = await gw.http.post('/console/api/session').send({ username, password: 'correct-horse' }).expect(200);
    const cookie = ([] as string[]).concat(session.headers['set-cookie'] ?? [])[0].split(';')[0];
    const consoleModels = (await gw.http.get('/console/api/models').set('Cookie', cookie).expect(200)).body;
    expect(consoleModels.data).toContain('costed-clip');

    for (const body of [videoModels, openaiModels, consoleModels]) {
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/"cost"|usd_per_unit|0\.0375|0\.0125/);
    }
  });
});
