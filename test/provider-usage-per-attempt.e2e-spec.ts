import { readFileSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { EPHEMERAL_FAMILY, EPHEMERAL_MODEL, EphemeralUpstream, startEphemeralUpstream } from './support/ephemeral-family';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

type ChannelRow = { channel_id: number; total: number; provider_usage: Record<string, number>; provider_usage_tasks: number };

/**
 * What a provider reports of its own cost is kept against the attempt and channel that made it, on
 * every database: a task channel A accepted (reporting credits), then failed for the provider's own
 * reason (reporting more), runs again on channel B and completes there (reporting B's figure). The
 * dashboard gives A its figure and B its own; the admin task detail shows both attempts and their sum.
 */
describeEachDatabase('provider usage per attempt', (kind) => {
  let gw: TestGateway;
  let upstream: EphemeralUpstream;
  let key = '';
  let channelA = 0;
  let channelB = 0;

  beforeAll(async () => {
    upstream = await startEphemeralUpstream(readFileSync(SAMPLE_VIDEO_PATH));
    gw = await startGateway(kind, { TASK_SYNC_INTERVAL_MS: '600000', WEBHOOK_DELIVERY_INTERVAL_MS: '0' }, undefined, {
      extraFamilies: [EPHEMERAL_FAMILY],
    });
    const clock = gw.clock;
    upstream.now = () => clock.now();
    channelA = await gw.createChannel({ ...upstream.channelBody('usage-a'), priority: 10 });
    channelB = await gw.createChannel({ ...upstream.channelBody('usage-b'), priority: 0 });
    key = (await gw.createCustomer({ quota: 10_000_000 })).key;
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  const pollOnce = async () => {
    gw.clock.advance(1_100);
    await gw.sync();
  };

  it("a task retried on another channel: each channel's sum has its own provider's figure, the task detail both attempts and their total", async () => {
    // Channel A: 40 credits at submit, then a failure of its own, reporting 70.
    upstream.scriptNext([{ state: 'failed', internal: true, credits: 70 }], 40);
    const id = (await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: EPHEMERAL_MODEL, prompt: 'a comet' }))
      .body.id as string;
    expect(id).toMatch(/^task_/);
    // Channel B, the retry: 25 credits at submit, 120 once done.
    upstream.scriptNext([{ state: 'running' }, { state: 'done', credits: 120 }], 25);
    for (let i = 0; i < 4; i++) await pollOnce();

    const dashboard = (await gw.admin.get('/api/admin/dashboard?range=24h').expect(200)).body;
    const row = (channelId: number) => (dashboard.by_channel as ChannelRow[]).find((channel) => channel.channel_id === channelId);
    // The task is B's now (its outcome counts there), but A's provider ran and billed the first attempt.
    expect(row(channelA)).toMatchObject({ total: 0, provider_usage: { credits: 70 }, provider_usage_tasks: 1 });
    expect(row(channelB)).toMatchObject({ total: 1, provider_usage: { credits: 120 }, provider_usage_tasks: 1 });

    const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    expect(detail).toMatchObject({
      status: 'SUCCESS',
      channel_id: channelB,
      provider_usage: { unit: 'credits', amount: 120, usd_estimate: null },
      provider_usage_attempts: [
        { attempt: 0, channel_id: channelA, unit: 'credits', amount: 70, usd_estimate: null },
        { attempt: 1, channel_id: channelB, unit: 'credits', amount: 120, usd_estimate: null },
      ],
      provider_usage_total: { credits: 190 },
    });
  });
});
