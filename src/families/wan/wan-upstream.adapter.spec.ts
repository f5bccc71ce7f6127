import { startWanEmulator, WanEmulatorServer } from '../../../test/support/wan-emulator';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { cancellableStates } from '../../upstream/upstream-adapter';
import { emulatorChannel, loopbackCalls, submittedTasks, upstreamTasks } from '../shared/family.spec-support';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import type { WanTaskRequest } from './wan-protocol';
import { WanUpstreamAdapter } from './wan-upstream.adapter';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

/** The adapter against DashScope's emulator on loopback: Bearer and the async header, UNKNOWN for the probe, cancel while PENDING. */
describe('WanUpstreamAdapter against the DashScope emulator', () => {
  const config = { mediaAllowPrivateHosts: true } as AppConfig;
  const images = new HostedImageInputs(config);
  const adapter = new WanUpstreamAdapter(loopbackCalls(config), images);
  const TEXT: WanTaskRequest = {
    protocol: 'media',
    mode: 'text-to-video',
    input: { prompt: 'a lighthouse', duration: 5, resolution: '720P', ratio: '16:9' },
    images: {},
    extra: { prompt_extend: false },
  };
  const task = upstreamTasks(TEXT, 'wan2.7-t2v');
  let fake: WanEmulatorServer;
  let channel: ChannelEntity;
  const submitted = submittedTasks(task, (base) => adapter.submit(base, channel));

  beforeAll(async () => {
    fake = await startWanEmulator();
    channel = emulatorChannel('wan', fake);
  });
  afterAll(() => fake.close());

  it('submits {model, input, parameters} with Bearer and X-DashScope-Async, then PENDING, RUNNING, SUCCEEDED with usage', async () => {
    const queued = await submitted();
    const sent = fake.creates.at(-1)!;
    expect(sent.request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent.request.headers['x-dashscope-async']).toBe('enable');
    expect(sent.body).toEqual({
      model: 'wan2.7-t2v',
      input: { prompt: 'a lighthouse' },
      parameters: { prompt_extend: false, duration: 5, resolution: '720P', ratio: '16:9' },
    });
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'queued', progress: 0 });
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'running' });
    const done = await adapter.poll(queued, channel);
    expect(done).toMatchObject({
      state: 'succeeded',
      videoUrl: expect.stringMatching(new RegExp(`^${fake.url}/oss/${queued.upstreamTaskId}\\.mp4\\?Expires=\\d+`)),
      providerUsage: { unit: 'video_seconds', amount: 5 },
    });
    expect(JSON.stringify(done.raw)).not.toContain('Expires');
    expect(adapter.outputExpiresAfterMs).toBe(24 * 3_600_000);
  });

  it('sends a staged frame inline as a data URI in media[]', async () => {
    const { ref, release } = await images.prepare(`data:image/png;base64,${PNG.toString('base64')}`, 'input_reference');
    const request = { ...TEXT, mode: 'image-to-video' as const, input: { duration: 5, resolution: '720P' }, images: { first_frame: ref } };
    await adapter.submit(upstreamTasks(request, 'wan2.7-i2v')(), channel);
    release?.();
    expect(fake.creates.at(-1)!.body.input).toEqual({
      media: [{ type: 'first_frame', url: `data:image/png;base64,${PNG.toString('base64')}` }],
    });
  });

  it('cancels a PENDING task (POST /api/v1/tasks/{id}/cancel), which then reads CANCELED; only PENDING is cancellable', async () => {
    fake.scriptNext(['PENDING']);
    const queued = await submitted();
    expect(cancellableStates(adapter)).toEqual(['queued']);
    await adapter.cancel(queued, channel);
    expect(fake.cancels().at(-1)).toMatchObject({ path: `/api/v1/tasks/${queued.upstreamTaskId}/cancel` });
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'failed', cancelledUpstream: true });
    // A second cancel is DashScope's UnsupportedOperation (400).
    await expect(adapter.cancel(queued, channel)).rejects.toMatchObject({ details: { upstreamCode: 'UnsupportedOperation' } });
  });

  it("a wrong key is DashScope's 401 InvalidApiKey (the channel's fault); the probe proves a key by an UNKNOWN task", async () => {
    await expect(adapter.submit(task(), { ...channel, apiKey: 'sk-wrong0000000' })).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 401, upstreamCode: 'InvalidApiKey' },
    });
    await expect(adapter.probe(channel)).resolves.toBeUndefined();
    await expect(adapter.probe({ ...channel, apiKey: 'sk-wrong0000000' })).rejects.toThrow(/api_key/);
  });
});
