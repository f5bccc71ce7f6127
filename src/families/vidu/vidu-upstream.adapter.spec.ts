import { startViduEmulator, ViduEmulatorServer } from '../../../test/support/vidu-emulator';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { ViduTaskRequest } from './vidu-protocol';
import { ViduUpstreamAdapter } from './vidu-upstream.adapter';
import { emulatorChannel, loopbackUrlOrInlineImages, upstreamTasks } from '../shared/family.spec-support';

/** The adapter against Vidu's emulator on loopback: `Token` auth, credits as provider usage, cancel while queued. */
describe('ViduUpstreamAdapter against the Vidu emulator', () => {
  let fake: ViduEmulatorServer;
  let adapter: ViduUpstreamAdapter;
  let channel: ChannelEntity;
  const config = { mediaAllowPrivateHosts: true, publicBaseUrl: 'http://127.0.0.1:1' } as AppConfig;
  const TEXT: ViduTaskRequest = { endpoint: 'text2video', prompt: 'p', duration: 5, resolution: '1080p', aspectRatio: '16:9', extra: {} };
  const task = upstreamTasks(TEXT, 'viduq3-pro');

  beforeAll(async () => {
    fake = await startViduEmulator();
    adapter = new ViduUpstreamAdapter(...loopbackUrlOrInlineImages(config));
    channel = emulatorChannel('vidu', fake);
  });
  afterAll(() => fake.close());

  it('submits with Authorization: Token <key> and reports the credits of the answer as provider usage', async () => {
    const outcome = await adapter.submit(task({}), channel);
    expect(outcome).toEqual({ upstreamTaskId: expect.stringMatching(/^\d{18}$/), providerUsage: { unit: 'credits', amount: 10 } });
    const sent = fake.creates.at(-1)!;
    expect(sent.request.headers.authorization).toBe(`Token ${fake.apiKey}`);
    expect(sent.endpoint).toBe('text2video');
    expect(sent.body).toEqual({ model: 'viduq3-pro', duration: 5, resolution: '1080p', prompt: 'p', aspect_ratio: '16:9' });
    const submitted = task({ upstreamTaskId: outcome.upstreamTaskId });
    for (const state of ['queued', 'queued', 'running']) expect(await adapter.poll(submitted, channel)).toMatchObject({ state });
    expect(await adapter.poll(submitted, channel)).toMatchObject({
      state: 'succeeded',
      videoUrl: `${fake.url}/cdn/${outcome.upstreamTaskId}.mp4`,
      providerUsage: { unit: 'credits', amount: 10 },
    });
  });

  it('a wrong key is refused with 401 Unauthorized: the channel is at fault', async () => {
    const wrong = { ...channel, apiKey: 'wrong' };
    await expect(adapter.submit(task({}), wrong)).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 401, upstreamCode: 'Unauthorized' },
    });
  });

  it('cancels a task still queued (POST .../cancel with its id); past that Vidu refuses with a 400', async () => {
    fake.scriptNext(['created', 'processing']);
    const { upstreamTaskId } = await adapter.submit(task({}), channel);
    const queued = task({ upstreamTaskId });
    await expect(adapter.cancel(queued, channel)).resolves.toBeUndefined();
    const cancel = fake.cancels().at(-1)!;
    expect(cancel.path).toBe(`/ent/v2/tasks/${upstreamTaskId}/cancel`);
    expect(cancel.json).toEqual({ id: upstreamTaskId });
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'failed', cancelledUpstream: true });

    fake.scriptNext(['processing']);
    const running = task({ upstreamTaskId: (await adapter.submit(task({}), channel)).upstreamTaskId });
    expect(await adapter.poll(running, channel)).toMatchObject({ state: 'running' });
    await expect(adapter.cancel(running, channel)).rejects.toMatchObject({
      kind: 'invalid_input',
      details: { upstreamCode: 'BadRequest' },
    });
    expect(adapter.cancelWhile).toEqual(['queued']);
  });

  it('the probe proves the key with a query of a task that cannot exist', async () => {
    await expect(adapter.probe(channel)).resolves.toBeUndefined();
    await expect(adapter.probe({ ...channel, apiKey: 'wrong' })).rejects.toMatchObject({ kind: 'channel' });
  });
});
