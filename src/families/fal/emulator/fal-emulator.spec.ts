import { inputMapOf, mapInput } from '../../shared/input-map';
import { FAL_MODELS } from '../fal-catalog';
import { FalEmulator, SIMULATED_DONE_MS, SIMULATED_QUEUED_MS } from './fal-emulator';
import { emulatorRequest, emulatorState, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';

const BASE = 'http://sim.test/simulator/fal';
const KEY = 'kid:ksecret';
const T2V = 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video';

/** The emulator as the embedded simulator runs it: requests follow the clock, prompt markers, fal's key check and app paths. */
describe('FalEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: FalEmulator;
  const request = (method: string, path: string, json?: unknown, authorization = `Key ${KEY}`) =>
    emulatorRequest(method, path, json, authorization);
  const submit = async (input: object, endpoint = T2V) => emulator.handle(request('POST', `/${endpoint}`, input), BASE);
  const status = async (id: string, app = 'fal-ai/kling-video') => emulator.handle(request('GET', `/${app}/requests/${id}/status`), BASE);
  const result = async (id: string) => emulator.handle(request('GET', `/fal-ai/kling-video/requests/${id}`), BASE);

  beforeEach(() => {
    time = 1_000_000;
    emulator = new FalEmulator({ apiKey: KEY, ...emulatorState(() => time) });
  });

  it('queues a request, moves it IN_QUEUE -> IN_PROGRESS -> COMPLETED by the clock; the result is a CDN video with billable units', async () => {
    const queued = replyJson(await submit({ prompt: 'a fox', duration: '10' }))!;
    const id = queued.request_id as string;
    expect(queued).toMatchObject({
      status: 'IN_QUEUE',
      status_url: `${BASE}/fal-ai/kling-video/requests/${id}/status`,
      cancel_url: `${BASE}/fal-ai/kling-video/requests/${id}/cancel`,
    });
    expect(replyJson(await status(id))).toMatchObject({ status: 'IN_QUEUE', queue_position: 0 });
    expect(await result(id)).toMatchObject({ status: 400, json: { detail: 'Request is still in progress' } });
    time += SIMULATED_QUEUED_MS;
    expect(replyJson(await status(id))).toMatchObject({ status: 'IN_PROGRESS' });
    time += SIMULATED_DONE_MS;
    expect(replyJson(await status(id))).toMatchObject({ status: 'COMPLETED', metrics: { inference_time: expect.any(Number) } });
    expect(await result(id)).toMatchObject({
      status: 200,
      headers: { 'x-fal-billable-units': '10' },
      json: { video: { url: `${BASE}/files/${id}.mp4`, content_type: 'video/mp4' } },
    });
    expect(await emulator.handle(request('GET', `/files/${id}.mp4`, undefined, ''), BASE)).toEqual({
      status: 200,
      video: { file: '/sample.mp4' },
    });
    // Only the app holds the request: not the endpoint's full path, not another app.
    expect((await status(id, T2V)).status).toBe(404);
    expect((await status(id, 'fal-ai/veo3.1')).status).toBe(404);
  });

  it('checks a builtin endpoint input, and ends marked prompts as fal would: on the result', async () => {
    const invalid = replyJson(await submit({ prompt: 'p', duration: 5 }))!.request_id as string;
    const moderated = replyJson(await submit({ prompt: 'p [simulate:moderation]' }))!.request_id as string;
    const failed = replyJson(await submit({ prompt: 'p [simulate:fail]' }))!.request_id as string;
    time += SIMULATED_DONE_MS;
    expect(await result(invalid)).toMatchObject({ status: 422, json: { detail: [{ loc: ['body', 'duration'], type: 'value_error' }] } });
    expect(await result(moderated)).toMatchObject({ status: 422, json: { detail: [{ type: 'content_policy_violation' }] } });
    expect(replyJson(await status(failed))).toMatchObject({ status: 'COMPLETED', error_type: 'runner_server_error' });
    expect(await result(failed)).toMatchObject({ status: 500, json: { error_type: 'runner_server_error' } });
    expect((await emulator.handle(request('GET', `/files/${failed}.mp4`, undefined, ''), BASE)).status).toBe(404);
    // Another endpoint takes any object.
    expect((await submit({ anything: true }, 'acme/custom-video')).status).toBe(200);
  });

  it('refuses [simulate:busy] 429, [simulate:locked] 403 and [simulate:reject] 422 at the submit, and a missing, malformed or unknown key 401', async () => {
    expect((await submit({ prompt: 'x [simulate:busy]' })).status).toBe(429);
    expect(replyJson(await submit({ prompt: 'x [simulate:locked]' }))!.detail).toContain('User is locked');
    expect((await submit({ prompt: 'x [simulate:reject]' })).status).toBe(422);
    for (const authorization of ['', 'Bearer kid:ksecret', 'Key kidksecret', 'Key kid:other'])
      expect((await emulator.handle(request('POST', `/${T2V}`, { prompt: 'p' }, authorization), BASE)).status).toBe(401);
    expect(emulator.submits).toHaveLength(0);
  });

  it('cancels a request IN_QUEUE (202, then COMPLETED with client_cancelled); in progress it carries on; completed is ALREADY_COMPLETED', async () => {
    const cancel = (id: string) => emulator.handle(request('PUT', `/fal-ai/kling-video/requests/${id}/cancel`), BASE);
    const first = replyJson(await submit({ prompt: 'a' }))!.request_id as string;
    expect(await cancel(first)).toMatchObject({ status: 202, json: { status: 'CANCELLATION_REQUESTED' } });
    expect(replyJson(await status(first))).toMatchObject({ status: 'COMPLETED', error_type: 'client_cancelled' });
    expect(await result(first)).toMatchObject({ status: 499 });
    time += SIMULATED_QUEUED_MS;
    const second = replyJson(await submit({ prompt: 'b' }))!.request_id as string;
    time += SIMULATED_QUEUED_MS;
    expect(await cancel(second)).toMatchObject({ status: 202 });
    time += SIMULATED_DONE_MS;
    expect((await result(second)).status).toBe(200);
    expect(await cancel(second)).toMatchObject({ status: 400, json: { status: 'ALREADY_COMPLETED' } });
    expect(await cancel('00000000-0000-0000-0000-000000000000')).toMatchObject({ status: 404, json: { status: 'NOT_FOUND' } });
  });

  it('delivers a request the video its input asked: duration, resolution, aspect ratio and audio', async () => {
    const { seen, state } = recordingEmulatorState(() => time);
    emulator = new FalEmulator({ apiKey: KEY, ...state });
    // As the gateway sends it through the fal route of veo3.1 (once fal-veo-3-1): `duration: "6s"`, `generate_audio: false`.
    const veo = FAL_MODELS.find((model) => model.id === 'veo3.1')!;
    const input = mapInput(inputMapOf(veo.options!.input_map), {
      prompt: 'a fox',
      seconds: 6,
      aspect_ratio: '9:16',
      resolution: '720p',
      audio: false,
    });
    const id = replyJson(await submit(input, 'fal-ai/veo3.1'))!.request_id as string;
    time += SIMULATED_DONE_MS;
    expect(await emulator.handle(request('GET', `/files/${id}.mp4`, undefined, ''), BASE)).toEqual({
      status: 200,
      video: { bytes: Buffer.from('x') },
    });
    expect(seen).toEqual([{ seconds: 6, resolution: '720p', aspectRatio: '9:16', audio: false }]);
  });
});
