import { readFileSync } from 'node:fs';
import { shapedSampleVideo } from '../src/families/simulator-shared/shaped-sample';
import { alphaChannelBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { metricSamples, metricSum } from './support/metrics-text';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { describeEachDatabase, describeOnSqlite } from './support/test-databases';
import { until } from './support/until';

/** States a task not ended is in. */
const IN_FLIGHT_STATES = ['SUBMITTING', 'NOT_START', 'QUEUED', 'IN_PROGRESS'];

/**
 * What an operator watching /metrics sees of tasks while they run and once they end: tasks in flight
 * by state and platform and the oldest one's age (read from the database), how late polls run, and
 * each delivered video's settlement by outcome. Two platforms: family A (alpha) and an
 * OpenAI-compatible model that serves a real 2 s clip, settled on what it delivered.
 */
describeEachDatabase('seeing it run: /metrics', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let openai: OpenAiEmulatorServer;
  let customer: { key: string };

  const scrape = async () => (await gw.http.get('/metrics').expect(200)).text;
  const submit = async (body: object) =>
    (await gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send(body).expect(200)).body.id as string;
  const inFlightByPlatform = (text: string) => {
    const counts: Record<string, number> = {};
    for (const sample of metricSamples(text).filter((s) => s.name === 'gateway_tasks_in_flight'))
      counts[sample.labels.platform] = (counts[sample.labels.platform] ?? 0) + sample.value;
    return counts;
  };

  beforeAll(async () => {
    alpha = await startAlphaEmulator();
    openai = await startOpenAiEmulator();
    gw = await startGateway(kind);
    await gw.admin
      .post('/api/admin/models', {
        id: 'studio-clip',
        modes: ['text-to-video'],
        durations: { min: 1, max: 20 },
        default_duration: 4,
        resolutions: ['1280x720'],
        aspect_ratios: [],
        audio: 'none',
        prices: [{ resolution: '1280x720', unit: 'second', price: 1_000 }],
        routes: [{ platform: 'openai', upstream_model: 'studio-clip' }],
      })
      .expect(201);
    await gw.createChannel(alphaChannelBody(alpha));
    await gw.createChannel({
      name: 'compatible',
      platform: 'openai',
      base_url: `${openai.url}/v1`,
      api_key: openai.apiKey,
      models: ['studio-clip'],
    });
    customer = await gw.createCustomer({ quota: 10_000_000 });
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
    await alpha?.close();
    await openai?.close();
  });

  it('shows tasks in flight per state and platform and the age of the oldest, falling to 0 as they end; a poll lag per poll; one settlement per delivered video, by outcome', async () => {
    alpha.defaultScript = finishAfter(2);
    openai.serveVideo(readFileSync(await shapedSampleVideo({ seconds: 2, width: 1280, height: 720, audio: false })));
    await submit({ model: 'alpha/v5', prompt: 'a lighthouse' });
    await submit({ model: 'alpha/v5', prompt: 'a harbour' });
    // Asked 4 s, gets the 2 s clip: half refunded. Asked 2 s: charged as asked.
    await submit({ model: 'studio-clip', prompt: 'a bay', seconds: '4', size: '1280x720' });
    await submit({ model: 'studio-clip', prompt: 'a cove', seconds: '2', size: '1280x720' });

    gw.clock.advance(7_000);
    const running = await scrape();
    expect(inFlightByPlatform(running)).toEqual({ alpha: 2, openai: 2 });
    for (const sample of metricSamples(running).filter((s) => s.name === 'gateway_tasks_in_flight'))
      expect(IN_FLIGHT_STATES).toContain(sample.labels.state);
    expect(metricSum(running, 'gateway_task_oldest_in_flight_seconds')).toBeGreaterThanOrEqual(7);
    // Another instance on the same database, which submitted none of them, reports the same.
    const other = await startGateway(kind, {}, gw.database);
    try {
      expect(inFlightByPlatform((await other.http.get('/metrics').expect(200)).text)).toEqual({ alpha: 2, openai: 2 });
    } finally {
      await other.close();
    }
    expect(metricSum(running, 'gateway_poll_lag_seconds_count')).toBe(0);

    await gw.sync();
    const polled = await scrape();
    // Each poll is observed once, late by the time the clock moved past its due time.
    expect(metricSum(polled, 'gateway_poll_lag_seconds_count')).toBe(4);
    expect(metricSum(polled, 'gateway_poll_lag_seconds_sum')).toBeGreaterThan(0);

    for (let round = 0; round < 6; round++) {
      gw.clock.advance(7_000);
      await gw.sync();
    }
    // The counts are cached for a moment: the next scrapes see every task ended.
    const ended = await until(
      'no task in flight',
      async () => {
        const text = await scrape();
        return metricSum(text, 'gateway_tasks_in_flight') === 0 ? text : null;
      },
      { timeoutMs: 10_000 },
    );
    // The series stay, at 0, so a graph falls to 0 instead of stopping.
    expect(Object.keys(inFlightByPlatform(ended)).sort()).toEqual(['alpha', 'openai']);
    expect(metricSum(ended, 'gateway_task_oldest_in_flight_seconds')).toBe(0);
    expect(metricSum(ended, 'gateway_poll_lag_seconds_count')).toBe(metricSum(ended, 'gateway_task_polls_total'));

    // Family A's emulator serves bytes that are no video: its two are charged as asked, as unreadable.
    const settlements = Object.fromEntries(
      metricSamples(ended)
        .filter((s) => s.name === 'gateway_settlements_total')
        .map((s) => [s.labels.outcome, s.value]),
    );
    expect(settlements).toEqual({ refunded_difference: 1, as_charged: 1, unreadable: 2 });
  });
});

/** Without a video store, a finished task is settled as asked the moment its provider is done: `not_stored`. */
describeOnSqlite('seeing it run: settlements without a video store', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;

  beforeAll(async () => {
    alpha = await startAlphaEmulator();
    gw = await startGateway(kind, { VIDEO_STORE: 'none' });
    await gw.createChannel(alphaChannelBody(alpha));
  });
  afterAll(async () => {
    await gw?.close();
    await alpha?.close();
  });

  it('counts each as not_stored, once', async () => {
    alpha.defaultScript = finishAfter(0);
    const customer = await gw.createCustomer({ quota: 10_000_000 });
    await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'alpha/v5', prompt: 'a pier' })
      .expect(200);
    for (let round = 0; round < 3; round++) {
      gw.clock.advance(7_000);
      await gw.syncTasksOnly();
    }
    const text = (await gw.http.get('/metrics').expect(200)).text;
    expect(metricSum(text, 'gateway_settlements_total', { outcome: 'not_stored' })).toBe(1);
    expect(metricSum(text, 'gateway_settlements_total')).toBe(1);
  });
});
