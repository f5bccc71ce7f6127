import { inputMapOf, mapInput } from '../../shared/input-map';
import { REPLICATE_MODELS } from '../replicate-catalog';
import { ReplicateEmulator, SIMULATED_DONE_MS, SIMULATED_STARTING_MS } from './replicate-emulator';
import { emulatorRequest, emulatorState, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';

const BASE = 'http://sim.test/simulator/replicate';
const TOKEN = 'r8_token';
const MODEL = 'kwaivgi/kling-v2.5-turbo-pro';

/** The emulator as the embedded simulator runs it: predictions follow the clock, prompt markers, Bearer, the hour of an output. */
describe('ReplicateEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: ReplicateEmulator;
  const request = (method: string, path: string, json?: unknown, authorization = `Bearer ${TOKEN}`) =>
    emulatorRequest(method, path, json, authorization);
  const create = (input: object, model = MODEL) => emulator.handle(request('POST', `/v1/models/${model}/predictions`, { input }), BASE);
  const get = async (id: string) => replyJson(await emulator.handle(request('GET', `/v1/predictions/${id}`), BASE))!;
  const file = (id: string) => emulator.handle(request('GET', `/files/${id}.mp4`, undefined, ''), BASE);

  beforeEach(() => {
    time = 1_000_000;
    emulator = new ReplicateEmulator({ apiToken: TOKEN, ...emulatorState(() => time) });
  });

  it('answers 201 starting, moves to processing and succeeded by the clock; the output is removed an hour after', async () => {
    const created = await create({ prompt: 'a fox', duration: 5 });
    expect(created.status).toBe(201);
    const id = replyJson(created)!.id as string;
    expect(replyJson(created)).toMatchObject({ status: 'starting', model: MODEL, urls: { get: `${BASE}/v1/predictions/${id}` } });
    time += SIMULATED_STARTING_MS;
    expect(await get(id)).toMatchObject({ status: 'processing', output: null });
    time += SIMULATED_DONE_MS;
    expect(await get(id)).toMatchObject({
      status: 'succeeded',
      output: `${BASE}/files/${id}.mp4`,
      metrics: { predict_time: expect.any(Number) },
    });
    expect(await file(id)).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    time += 3600_000;
    expect(await get(id)).toMatchObject({ status: 'succeeded', output: null, data_removed: true, input: {} });
    expect((await file(id)).status).toBe(404);
  });

  it('checks the builtin model input at the create (422 naming the fields); other models take any input', async () => {
    // end_image too: the model's published schema has no end frame (docs/families.md).
    const refused = await create({
      prompt: 'p',
      duration: 7,
      size: '1280x720',
      start_image: 'https://x.test/a.png',
      end_image: 'https://x.test/b.png',
    });
    expect(refused).toMatchObject({ status: 422, json: { title: 'Input validation failed' } });
    expect(replyJson(refused)!.invalid_fields.map((field: { field: string }) => field.field)).toEqual(['duration', 'size', 'end_image']);
    expect((await create({ anything: 1 }, 'acme/video')).status).toBe(201);
    const byVersion = await emulator.handle(request('POST', '/v1/predictions', { version: 'c'.repeat(64), input: { prompt: 'p' } }), BASE);
    expect(byVersion.status).toBe(201);
    const badVersion = await emulator.handle(request('POST', '/v1/predictions', { version: 'v1', input: {} }), BASE);
    expect(replyJson(badVersion)).toMatchObject({ title: 'Invalid version or not permitted', status: 422 });
  });

  it('fails marked prompts with their error text, refuses busy 429, credit 402 and reject 422, and tokens it does not know 401', async () => {
    const moderated = replyJson(await create({ prompt: 'x [simulate:moderation]' }))!.id as string;
    const failed = replyJson(await create({ prompt: 'x [simulate:fail]' }))!.id as string;
    time += SIMULATED_DONE_MS;
    expect(await get(moderated)).toMatchObject({ status: 'failed', error: expect.stringContaining('(E005)'), output: null });
    expect(await get(failed)).toMatchObject({ status: 'failed', error: expect.stringContaining('CUDA') });
    expect(await create({ prompt: '[simulate:busy]' })).toMatchObject({ status: 429, headers: { 'retry-after': '30' } });
    expect((await create({ prompt: '[simulate:credit]' })).status).toBe(402);
    expect((await create({ prompt: '[simulate:reject]' })).status).toBe(422);
    for (const authorization of ['', 'Bearer ', 'Token r8_token', 'Bearer r8_other'])
      expect((await emulator.handle(request('GET', '/v1/account', undefined, authorization), BASE)).status).toBe(401);
    expect((await emulator.handle(request('GET', '/v1/account'), BASE)).status).toBe(200);
  });

  it('cancels a prediction still running; an ended one is answered as it is', async () => {
    const cancel = (id: string) => emulator.handle(request('POST', `/v1/predictions/${id}/cancel`), BASE);
    const running = replyJson(await create({ prompt: 'a' }))!.id as string;
    expect(replyJson(await cancel(running))).toMatchObject({ status: 'canceled' });
    time += SIMULATED_DONE_MS;
    expect(await get(running)).toMatchObject({ status: 'canceled', output: null });
    const done = replyJson(await create({ prompt: 'b' }))!.id as string;
    time += SIMULATED_DONE_MS;
    expect(replyJson(await cancel(done))).toMatchObject({ status: 'succeeded' });
    expect((await cancel('nosuchprediction0000000000')).status).toBe(404);
  });

  it('delivers a prediction the video its input asked: duration, resolution, aspect ratio and audio', async () => {
    const { seen, state } = recordingEmulatorState(() => time);
    emulator = new ReplicateEmulator({ apiToken: TOKEN, ...state });
    // The builtin model as the gateway sends it (its input_map has no resolution nor audio), then a model an operator adds.
    const kling = mapInput(inputMapOf(REPLICATE_MODELS[0].options!.input_map), {
      prompt: 'a fox',
      seconds: 10,
      aspect_ratio: '9:16',
      resolution: '1080p',
      audio: false,
    });
    const veo = { prompt: 'a fox', duration: 8, resolution: '720p', aspect_ratio: '16:9', generate_audio: true };
    const sent: Array<[object, string]> = [
      [kling, MODEL],
      [veo, 'google/veo-3.1'],
    ];
    for (const [input, model] of sent) {
      const id = replyJson(await create(input, model))!.id as string;
      time += SIMULATED_DONE_MS;
      expect(await file(id)).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    }
    expect(seen).toEqual([
      { seconds: 10, aspectRatio: '9:16' },
      { seconds: 8, resolution: '720p', aspectRatio: '16:9', audio: true },
    ]);
  });
});
