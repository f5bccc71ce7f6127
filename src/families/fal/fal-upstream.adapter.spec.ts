import { FalEmulatorServer, startFalEmulator } from '../../../test/support/fal-emulator';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { FalUpstreamAdapter } from './fal-upstream.adapter';
import { emulatorChannel, hostedRequests, loopbackCalls, submittedTasks, upstreamTasks } from '../shared/family.spec-support';

const T2V = 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video';
const I2V = 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

/** The adapter against fal's emulator on loopback: what goes on the wire, and what each answer makes of the task. */
describe('FalUpstreamAdapter against the fal emulator', () => {
  let fake: FalEmulatorServer;
  let adapter: FalUpstreamAdapter;
  let images: HostedImageInputs;
  let channel: ChannelEntity;
  const config = { mediaAllowPrivateHosts: true } as AppConfig;
  const request = hostedRequests({ prompt: 'a fox', duration: '5' }, 'video.url');
  const task = upstreamTasks(request(), T2V);
  const submitted = submittedTasks(task, (base) => adapter.submit(base, channel));

  beforeAll(async () => {
    fake = await startFalEmulator();
    images = new HostedImageInputs(config);
    adapter = new FalUpstreamAdapter(loopbackCalls(config), images);
    channel = emulatorChannel('fal', fake);
  });
  afterAll(() => fake.close());

  it('submits the input to the endpoint id with `Key` auth, follows the app; the result is the video and its billable units', async () => {
    const queued = await submitted();
    const sent = fake.submits.at(-1)!;
    expect(sent.endpoint).toBe(T2V);
    expect(sent.input).toEqual({ prompt: 'a fox', duration: '5' });
    expect(sent.request.headers.authorization).toBe(`Key ${fake.apiKey}`);
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'queued', progress: 0 });
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'running' });
    const done = await adapter.poll(queued, channel);
    expect(done).toEqual({
      state: 'succeeded',
      progress: 100,
      videoUrl: `${fake.url}/files/${queued.upstreamTaskId}.mp4`,
      raw: expect.objectContaining({ status: 'COMPLETED' }),
      providerUsage: { unit: 'fal_billable_units', amount: 5 },
    });
    const polled = fake.requests.filter((r) => r.method === 'GET' && r.path.includes('/requests/')).map((r) => r.path);
    expect(polled.every((path) => path.startsWith(`/fal-ai/kling-video/requests/${queued.upstreamTaskId}`))).toBe(true);
    expect(JSON.stringify(done.raw)).not.toContain(fake.url);
  });

  it('sends a staged image inline as a data URI, a URL as it is', async () => {
    const staged = await images.prepare({ buffer: PNG }, 'input_reference');
    await submitted({ upstreamModel: I2V, request: request({ mode: 'image-to-video', images: { image_url: staged.ref } }) });
    expect(fake.submits.at(-1)!.input.image_url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    staged.release?.();
    await submitted({ upstreamModel: I2V, request: request({ images: { image_url: { url: 'https://cdn.example.com/a.png' } } }) });
    expect(fake.submits.at(-1)!.input.image_url).toBe('https://cdn.example.com/a.png');
  });

  it.each([
    ['[simulate:moderation]', 'content moderation failed: content_policy_violation'],
    ['[simulate:fail]', "generation failed: runner_server_error: the provider's runner failed"],
  ])('a COMPLETED request whose result is an error (%s) fails the task: %s', async (marker, failReason) => {
    fake.scriptNext(['COMPLETED']);
    const failed = await submitted({ request: request({ input: { prompt: `x ${marker}` } }) });
    const outcome = await adapter.poll(failed, channel);
    expect(outcome).toMatchObject({ state: 'failed', failReason });
    expect(JSON.stringify(outcome)).not.toMatch(/10\.0\.0\.7|flagged/);
  });

  it('an input the endpoint refuses ends the task failed, naming the issue (never its text)', async () => {
    fake.scriptNext(['COMPLETED']);
    const refused = await submitted({ request: request({ input: { prompt: 'p', duration: '7' } }) });
    expect(await adapter.poll(refused, channel)).toMatchObject({
      state: 'failed',
      failReason: 'generation failed: value_error: the provider refused the input (param: duration)',
    });
  });

  it('cancels a request IN_QUEUE with PUT on the app path; the next poll says it was cancelled upstream; later, fal refuses', async () => {
    fake.scriptNext(['IN_QUEUE']);
    const queued = await submitted();
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'queued' });
    await expect(adapter.cancel(queued, channel)).resolves.toBeUndefined();
    expect(fake.cancels().at(-1)!.path).toBe(`/fal-ai/kling-video/requests/${queued.upstreamTaskId}/cancel`);
    expect(await adapter.poll(queued, channel)).toMatchObject({ state: 'failed', cancelledUpstream: true });
    await expect(adapter.cancel(queued, channel)).rejects.toMatchObject({ kind: 'invalid_input', details: { httpStatus: 400 } });
    expect(adapter.cancelWhile).toEqual(['queued']);
  });

  it('refuses a wrong key as the channel fault, and an api_key that is not <key_id>:<key_secret> before any call', async () => {
    const calls = fake.requests.length;
    await expect(adapter.submit(task({}), { ...channel, apiKey: 'no-colon' })).rejects.toMatchObject({ kind: 'channel' });
    expect(fake.requests).toHaveLength(calls);
    await expect(adapter.submit(task({}), { ...channel, apiKey: 'id:wrong' })).rejects.toMatchObject({
      kind: 'channel',
      details: { httpStatus: 401 },
    });
    await expect(adapter.probe(channel)).resolves.toBeUndefined();
    await expect(adapter.probe({ ...channel, apiKey: 'id:wrong' })).rejects.toMatchObject({ kind: 'channel' });
  });

  it('maps submit refusals: a locked account to the channel, throttling to back-pressure', async () => {
    await expect(adapter.submit(task({ request: request({ input: { prompt: '[simulate:locked]' } }) }), channel)).rejects.toMatchObject({
      kind: 'channel',
      details: { upstreamCode: 'user_locked' },
    });
    fake.failNextSubmit({ status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '9' } });
    await expect(adapter.submit(task({}), channel)).rejects.toMatchObject({ kind: 'backpressure', details: { retryAfterSeconds: 9 } });
  });
});
