import { ReplicateEmulatorServer, startReplicateEmulator } from '../../../test/support/replicate-emulator';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { ReplicateUpstreamAdapter } from './replicate-upstream.adapter';
import { emulatorChannel, hostedRequests, loopbackCalls, submittedTasks, upstreamTasks } from '../shared/family.spec-support';

const MODEL = 'kwaivgi/kling-v2.5-turbo-pro';
const VERSION = 'b'.repeat(64);

/** The adapter against Replicate's emulator on loopback: what goes on the wire, and what each prediction makes of the task. */
describe('ReplicateUpstreamAdapter against the Replicate emulator', () => {
  let fake: ReplicateEmulatorServer;
  let adapter: ReplicateUpstreamAdapter;
  let channel: ChannelEntity;
  const config = { mediaAllowPrivateHosts: true } as AppConfig;
  const request = hostedRequests({ prompt: 'a fox', duration: 5 }, 'output');
  const task = upstreamTasks(request(), MODEL);
  const submitted = submittedTasks(task, (base) => adapter.submit(base, channel));

  beforeAll(async () => {
    fake = await startReplicateEmulator();
    adapter = new ReplicateUpstreamAdapter(loopbackCalls(config), new HostedImageInputs(config));
    channel = emulatorChannel('replicate', fake);
  });
  afterAll(() => fake.close());

  it('creates on the model with Bearer, follows the prediction; the output is the video, predict_time its usage; it expires after an hour', async () => {
    const created = await submitted({ request: request({ images: { start_image: { url: 'https://cdn.example.com/a.png' } } }) });
    expect(fake.creates.at(-1)).toMatchObject({
      model: MODEL,
      version: null,
      input: { prompt: 'a fox', duration: 5, start_image: 'https://cdn.example.com/a.png' },
    });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(fake.requests.at(-1)!.path).toBe(`/v1/models/${MODEL}/predictions`);
    expect(await adapter.poll(created, channel)).toMatchObject({ state: 'queued' });
    expect(await adapter.poll(created, channel)).toMatchObject({ state: 'running' });
    expect(await adapter.poll(created, channel)).toMatchObject({
      state: 'succeeded',
      videoUrl: `${fake.url}/files/${created.upstreamTaskId}.mp4`,
      providerUsage: { unit: 'predict_seconds', amount: 4.2 },
    });
    expect(adapter.outputExpiresAfterMs).toBe(3600_000);
    await expect(adapter.probe(channel)).resolves.toBeUndefined();
  });

  it('creates a pinned version with POST /v1/predictions; an unknown version is the channel fault', async () => {
    await submitted({ upstreamModel: `acme/video:${VERSION}` });
    expect(fake.requests.at(-1)!.path).toBe('/v1/predictions');
    expect(fake.requests.at(-1)!.json).toMatchObject({ version: VERSION, input: { prompt: 'a fox' } });
    await expect(adapter.submit(task({ upstreamModel: 'acme/video:deadbeef' }), channel)).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 422 },
    });
    await expect(adapter.submit(task({ upstreamModel: 'no-owner' }), channel)).rejects.toMatchObject({ kind: 'channel' });
  });

  it.each([
    ['[simulate:moderation]', 'content moderation failed'],
    ['[simulate:fail]', 'generation failed: the prediction failed'],
  ])('a failed prediction (%s) fails the task: %s', async (marker, failReason) => {
    fake.scriptNext(['succeeded']);
    const failed = await submitted({ request: request({ input: { prompt: `x ${marker}` } }) });
    const outcome = await adapter.poll(failed, channel);
    expect(outcome).toMatchObject({ state: 'failed', failReason, providerUsage: { unit: 'predict_seconds' } });
    expect(JSON.stringify(outcome)).not.toMatch(/10\.0\.0\.7|sensitive/);
  });

  it('cancels a running prediction; the next poll says cancelled upstream; a cancel of an ended one is refused', async () => {
    fake.scriptNext(['processing']);
    const running = await submitted();
    expect(await adapter.poll(running, channel)).toMatchObject({ state: 'running' });
    await expect(adapter.cancel(running, channel)).resolves.toBeUndefined();
    expect(fake.cancels().at(-1)!.path).toBe(`/v1/predictions/${running.upstreamTaskId}/cancel`);
    expect(await adapter.poll(running, channel)).toMatchObject({ state: 'failed', cancelledUpstream: true });
    fake.scriptNext(['succeeded']);
    const done = await submitted();
    await adapter.poll(done, channel);
    await expect(adapter.cancel(done, channel)).rejects.toMatchObject({ kind: 'invalid_input', details: { upstreamCode: 'succeeded' } });
  });

  it('maps create refusals: token and credit to the channel, validation to input, throttling to back-pressure', async () => {
    await expect(adapter.submit(task({}), { ...channel, apiKey: 'r8_wrong' })).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 401 },
    });
    await expect(adapter.probe({ ...channel, apiKey: 'r8_wrong' })).rejects.toMatchObject({ kind: 'channel' });
    await expect(adapter.submit(task({ request: request({ input: { prompt: '[simulate:credit]' } }) }), channel)).rejects.toMatchObject({
      kind: 'channel',
      details: { upstreamCode: 'insufficient_credit' },
    });
    await expect(adapter.submit(task({ request: request({ input: { prompt: 'p', duration: 7 } }) }), channel)).rejects.toMatchObject({
      kind: 'invalid_input',
      message: 'enum: the provider refused the input (param: duration)',
    });
    await expect(adapter.submit(task({ request: request({ input: { prompt: '[simulate:busy]' } }) }), channel)).rejects.toMatchObject({
      kind: 'backpressure',
      details: { retryAfterSeconds: 30 },
    });
  });
});
