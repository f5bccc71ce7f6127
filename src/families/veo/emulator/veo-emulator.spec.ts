import { SIMULATED_DONE_MS, VeoEmulator } from './veo-emulator';
import {
  emulatorCaller,
  emulatorState,
  keyedRequests,
  recordingEmulatorState,
  recordingVideoSource,
  replyJson,
} from '../../shared/emulator.spec-support';

const BASE = 'http://sim.test/simulator/veo';
const MODEL = 'veo-3.1-fast-generate-preview';

/** The emulator as the embedded simulator runs it: operations follow the clock, prompt markers, the key on every call. */
describe('VeoEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: VeoEmulator;
  const request = keyedRequests('x-goog-api-key', 'k');
  const submit = async (prompt: string, parameters: object = {}, model = MODEL) =>
    emulator.handle(request('POST', `/v1beta/models/${model}:predictLongRunning`, { instances: [{ prompt }], parameters }), BASE);
  const get = async (target: string, key: string | null = 'k') => emulator.handle(request('GET', target, undefined, key), BASE);

  beforeEach(() => {
    time = 1_000_000;
    emulator = new VeoEmulator({ apiKey: 'k', ...emulatorState(() => time) });
  });

  it('runs an operation for 6 s, then hands out a file whose download redirects to signed storage', async () => {
    const name = replyJson(await submit('a kite', { durationSeconds: 4 }))!.name as string;
    expect(name).toMatch(new RegExp(`^models/${MODEL}/operations/[0-9a-f]{12}$`));
    expect(replyJson(await get(`/v1beta/${name}`))).toEqual({ name });
    const id = name.split('/').at(-1)!;
    expect((await get(`/v1beta/files/${id}:download?alt=media`)).status).toBe(404);
    time += SIMULATED_DONE_MS;
    const uri = replyJson(await get(`/v1beta/${name}`))!.response.generateVideoResponse.generatedSamples[0].video.uri as string;
    expect(uri).toBe(`${BASE}/v1beta/files/${id}:download?alt=media`);
    expect((await get(`/v1beta/files/${id}:download?alt=media`, null)).status).toBe(400);
    const redirect = await get(`/v1beta/files/${id}:download?alt=media`);
    expect(redirect.status).toBe(302);
    const location = new URL((redirect as { headers: Record<string, string> }).headers.Location);
    expect(location.pathname).toBe(`/simulator/veo/storage/${id}`);
    expect(await get(`/storage/${id}${location.search}`, null)).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    expect((await get(`/storage/${id}?sig=forged`, null)).status).toBe(403);
    expect((await get(`/v1beta/models/veo-3.0-generate-001/operations/${id}`)).status).toBe(404);
  });

  it('ends [simulate:moderation] RAI-filtered with no sample and [simulate:fail] with error 13; [simulate:busy] is a 429', async () => {
    const filtered = replyJson(await submit('x [simulate:moderation]'))!.name as string;
    const failed = replyJson(await submit('x [simulate:fail]'))!.name as string;
    expect(replyJson(await submit('x [simulate:busy]'))).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
    time += SIMULATED_DONE_MS;
    expect(replyJson(await get(`/v1beta/${filtered}`))!.response.generateVideoResponse).toMatchObject({ raiMediaFilteredCount: 1 });
    expect(replyJson(await get(`/v1beta/${failed}`))).toMatchObject({ done: true, error: { code: 13 } });
  });

  it('takes the key as ?key= too, refuses a wrong one as API_KEY_INVALID, and lists its models', async () => {
    expect((await get('/v1beta/models?key=k', null)).status).toBe(200);
    const refused = replyJson(await get('/v1beta/models', 'wrong'))!;
    expect(refused.error).toMatchObject({ code: 400, details: [{ reason: 'API_KEY_INVALID' }] });
    expect(replyJson(await get('/v1beta/models'))!.models).toContainEqual({
      name: `models/${MODEL}`,
      supportedGenerationMethods: ['predictLongRunning'],
    });
    expect(emulator.requests).toHaveLength(3);
  });

  it('refuses an unknown model (404), an unsupported duration and the Vertex-only parameters (400)', async () => {
    expect((await submit('p', {}, 'veo-9')).status).toBe(404);
    expect(replyJson(await submit('p', { durationSeconds: 5 }))).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    for (const parameter of ['seed', 'generateAudio', 'outputGcsUri', 'labels'])
      expect((await submit('p', { [parameter]: 1 })).status).toBe(400);
    expect((await submit('')).status).toBe(400);
  });
});

describe('VeoEmulator: Gemini Omni on the Interactions API', () => {
  let time: number;
  let emulator: VeoEmulator;
  const request = keyedRequests('x-goog-api-key', 'k');
  const create = async (body: object) => emulator.handle(request('POST', '/v1beta/interactions', body), BASE);
  const call = async (method: string, target: string) => emulator.handle(request(method, target), BASE);
  const omni = (input: unknown, format: object = {}) => ({
    model: 'gemini-omni-1.1-flash',
    input,
    response_format: { type: 'video', ...format },
    background: true,
  });

  beforeEach(() => {
    time = 1_000_000;
    emulator = new VeoEmulator({ apiKey: 'k', ...emulatorState(() => time) });
  });

  it('runs an interaction in the background, then completes it with a Files URI and its output tokens; a cancel then is refused', async () => {
    const created = replyJson(await create(omni('a kite', { duration: '4s', resolution: '720p', aspect_ratio: '9:16' })))!;
    expect(created).toMatchObject({ id: expect.stringMatching(/^v1_/), status: 'in_progress', model: 'gemini-omni-1.1-flash' });
    expect(replyJson(await call('GET', `/v1beta/interactions/${created.id}`))).toMatchObject({ status: 'in_progress' });
    time += SIMULATED_DONE_MS;
    const done = replyJson(await call('GET', `/v1beta/interactions/${created.id}`))!;
    expect(done).toMatchObject({ status: 'completed', usage: { total_output_tokens: 4 * 5_792 } });
    expect(done.steps.at(-1).content[0]).toEqual({
      type: 'video',
      mime_type: 'video/mp4',
      uri: `${BASE}/v1beta/files/${created.id}:download?alt=media`,
    });
    expect((await call('GET', `/v1beta/files/${created.id}:download?alt=media`)).status).toBe(302);
    expect(replyJson(await call('POST', `/v1beta/interactions/${created.id}/cancel`))).toMatchObject({
      error: { status: 'FAILED_PRECONDITION' },
    });
  });

  it('[simulate:inline] completes with the video made to what was asked as base64 data, no Files URI, the same on every read', async () => {
    const { seen, source } = recordingVideoSource();
    emulator = new VeoEmulator({ apiKey: 'k', ...emulatorState(() => time, source) });
    const created = replyJson(await create(omni('a kite [simulate:inline]', { duration: '5s', resolution: '1080p' })))!;
    time += SIMULATED_DONE_MS;
    for (let read = 0; read < 2; read++)
      expect(replyJson(await call('GET', `/v1beta/interactions/${created.id}`))).toMatchObject({
        status: 'completed',
        steps: [{ type: 'user_input' }, { type: 'model_output', content: [{ type: 'video', mime_type: 'video/mp4', data: 'eA==' }] }],
      });
    expect(JSON.stringify(replyJson(await call('GET', `/v1beta/interactions/${created.id}`)))).not.toContain('uri');
    expect(seen[0]).toMatchObject({ seconds: 5, resolution: '1080p' });
  });

  it('cancels one in progress (it stays cancelled, its file never comes); safety and failures end it failed; busy is a 429', async () => {
    const created = replyJson(await create(omni('a kite')))!;
    expect(replyJson(await call('POST', `/v1beta/interactions/${created.id}/cancel`))).toMatchObject({ status: 'cancelled' });
    time += SIMULATED_DONE_MS;
    expect(replyJson(await call('GET', `/v1beta/interactions/${created.id}`))).toMatchObject({ status: 'cancelled' });
    expect((await call('GET', `/v1beta/files/${created.id}:download?alt=media`)).status).toBe(404);
    const blocked = replyJson(await create(omni('x [simulate:moderation]')))!;
    const failed = replyJson(await create(omni([{ type: 'text', text: 'x [simulate:fail]' }])))!;
    expect(replyJson(await create(omni('x [simulate:busy]')))).toMatchObject({ error: { code: 429 } });
    time += SIMULATED_DONE_MS;
    expect(replyJson(await call('GET', `/v1beta/interactions/${blocked.id}`))).toMatchObject({
      status: 'failed',
      steps: [{ error: { details: [{ reason: 'SAFETY' }] } }],
    });
    expect(replyJson(await call('GET', `/v1beta/interactions/${failed.id}`))).toMatchObject({
      status: 'failed',
      steps: [{ error: { code: 13 } }],
    });
  });

  it('refuses a wrong key, the shut-down preview and unknown ids (404), and a response_format it does not make (400)', async () => {
    const refused = replyJson(await emulator.handle(request('POST', '/v1beta/interactions', omni('p'), 'wrong'), BASE))!;
    expect(refused.error).toMatchObject({ details: [{ reason: 'API_KEY_INVALID' }] });
    expect(replyJson(await create({ ...omni('p'), model: 'gemini-omni-flash-preview' }))).toMatchObject({ error: { code: 404 } });
    expect((await create({ ...omni('p'), model: 'gemini-omni-9-flash' })).status).toBe(404);
    expect((await call('POST', '/v1beta/models/gemini-omni-1.1-flash:generateContent')).status).toBe(404);
    for (const format of [{ duration: '11s' }, { duration: '8' }, { resolution: '8k' }, { aspect_ratio: '1:1' }, { type: 'image' }])
      expect((await create(omni('p', format))).status).toBe(400);
    expect((await create(omni(''))).status).toBe(400);
  });
});

describe('VeoEmulator (the video made to order)', () => {
  it('asks the video source for the durationSeconds, resolution and aspectRatio the operation asked', async () => {
    const { seen, state } = recordingEmulatorState();
    const emulator = new VeoEmulator({ apiKey: 'k', ...state, defaultScript: ['done'] });
    const call = emulatorCaller(emulator, BASE, { 'x-goog-api-key': 'k' });
    const parameters = { aspectRatio: '9:16', durationSeconds: 8, resolution: '1080p', sampleCount: 1, personGeneration: 'allow_all' };
    const name = replyJson(await call('POST', `/v1beta/models/${MODEL}:predictLongRunning`, { instances: [{ prompt: 'p' }], parameters }))!
      .name as string;
    const uri = replyJson(await call('GET', `/v1beta/${name}`))!.response.generateVideoResponse.generatedSamples[0].video.uri as string;
    const redirect = (await call('GET', uri)) as { headers: Record<string, string> };
    expect(await call('GET', redirect.headers.Location)).toEqual({
      status: 200,
      video: { bytes: Buffer.from('x') },
    });
    expect(seen).toEqual([{ seconds: 8, resolution: '1080p', aspectRatio: '9:16' }]);
  });
});
