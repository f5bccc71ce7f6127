import { startXaiEmulator, XaiEmulatorServer } from '../../../test/support/xai-emulator';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { cancellableStates, UpstreamAdapter } from '../../upstream/upstream-adapter';
import type { XaiTaskRequest } from './xai-protocol';
import { XaiUpstreamAdapter } from './xai-upstream.adapter';
import { emulatorChannel, loopbackUrlOrInlineImages, upstreamTasks } from '../shared/family.spec-support';

/** The adapter against xAI's emulator on loopback: Bearer auth, a 202 with no body, usage in ticks, no cancel. */
describe('XaiUpstreamAdapter against the xAI emulator', () => {
  let fake: XaiEmulatorServer;
  let adapter: XaiUpstreamAdapter;
  let channel: ChannelEntity;
  const config = { mediaAllowPrivateHosts: true, publicBaseUrl: 'http://127.0.0.1:1' } as AppConfig;
  const TEXT: XaiTaskRequest = { prompt: 'p', duration: 6, resolution: '480p', aspectRatio: '16:9', extra: {} };
  const task = upstreamTasks(TEXT, 'grok-imagine-video');

  beforeAll(async () => {
    fake = await startXaiEmulator();
    adapter = new XaiUpstreamAdapter(...loopbackUrlOrInlineImages(config));
    channel = emulatorChannel('xai', fake);
  });
  afterAll(() => fake.close());

  it('submits with the Bearer key, reads the 202 without a body as queued, then done with usage.cost_in_usd_ticks', async () => {
    const { upstreamTaskId } = await adapter.submit(task({}), channel);
    expect(fake.creates.at(-1)!.request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(fake.creates.at(-1)!.body).toEqual({
      model: 'grok-imagine-video',
      prompt: 'p',
      duration: 6,
      resolution: '480p',
      aspect_ratio: '16:9',
    });
    const submitted = task({ upstreamTaskId });
    expect(await adapter.poll(submitted, channel)).toEqual({ state: 'queued', progress: 0, raw: {} });
    expect(await adapter.poll(submitted, channel)).toMatchObject({ state: 'running', progress: 50 });
    expect(await adapter.poll(submitted, channel)).toMatchObject({
      state: 'succeeded',
      videoUrl: `${fake.url}/vidgen/xai-video-${upstreamTaskId}.mp4`,
      // $0.05 a second at 480p, 6 s: $0.30.
      providerUsage: { unit: 'usd_ticks', amount: 3_000_000_000 },
    });
    expect(fake.requests.filter((r) => r.path === `/v1/videos/${upstreamTaskId}`).map((r) => r.headers.authorization)).toEqual(
      Array(3).fill(`Bearer ${fake.apiKey}`),
    );
  });

  it("a wrong key is xAI's 400 about the key: the channel is at fault", async () => {
    await expect(adapter.submit(task({}), { ...channel, apiKey: 'xai-wrong' })).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 400, upstreamCode: 'invalid_api_key' },
    });
  });

  it('has no cancel (xAI has none): nothing is ever stopped there', () => {
    expect((adapter as UpstreamAdapter).cancel).toBeUndefined();
    expect(cancellableStates(adapter)).toEqual([]);
    expect(adapter.outputExpiresAfterMs).toBe(24 * 3_600_000);
  });

  it('the probe proves the key with a query of a request that cannot exist', async () => {
    await expect(adapter.probe(channel)).resolves.toBeUndefined();
    await expect(adapter.probe({ ...channel, apiKey: 'xai-wrong' })).rejects.toMatchObject({ kind: 'channel' });
  });
});
