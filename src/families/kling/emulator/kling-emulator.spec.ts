import type { EmulatorReply } from '../../simulator-shared/emulator-http';
import { signKlingJwt } from '../kling-jwt';
import { buildKlingBody, type KlingTaskRequest } from '../kling-protocol';
import { KlingEmulator, SIMULATED_DONE_MS, SIMULATED_SUBMITTED_MS } from './kling-emulator';
import { emulatorRequest, emulatorState, recordingEmulatorState } from '../../shared/emulator.spec-support';

const BASE = 'http://sim.test/simulator/kling';

/** The emulator as the embedded simulator runs it: tasks follow the clock, prompt markers, Kling's JWT check. */
describe('KlingEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: KlingEmulator;
  const token = (secret = 'secret', nowMs = Date.now()) => `Bearer ${signKlingJwt('AK', secret, nowMs)}`;
  const request = (method: string, path: string, json?: unknown, authorization = token()) =>
    emulatorRequest(method, path, json, authorization);
  const body = (reply: EmulatorReply) => ('json' in reply ? (reply.json as { code: number; data: Record<string, any> }) : null);
  const create = (prompt: string, endpoint = 'text2video', extra: object = {}) =>
    emulator.handle(request('POST', `/v1/videos/${endpoint}`, { model_name: 'kling-v2-5-turbo', prompt, duration: '5', ...extra }), BASE);
  const query = async (id: string, endpoint = 'text2video') =>
    body(await emulator.handle(request('GET', `/v1/videos/${endpoint}/${id}`), BASE))!;

  beforeEach(() => {
    time = 1_000_000;
    emulator = new KlingEmulator({ accessKey: 'AK', secretKey: 'secret', ...emulatorState(() => time) });
  });

  it('moves a task submitted -> processing -> succeed by the clock, with a CDN link that needs no key', async () => {
    const created = await create('a fox');
    expect(created.status).toBe(200);
    const id = body(created)!.data.task_id as string;
    expect(body(created)!.data).toMatchObject({ task_status: 'submitted' });
    expect((await query(id)).data.task_status).toBe('submitted');
    expect((await emulator.handle(request('GET', `/cdn/${id}.mp4`, undefined, ''), BASE)).status).toBe(404);
    time += SIMULATED_SUBMITTED_MS;
    expect((await query(id)).data.task_status).toBe('processing');
    time += SIMULATED_DONE_MS;
    const done = (await query(id)).data;
    expect(done).toMatchObject({ task_status: 'succeed', task_result: { videos: [{ url: `${BASE}/cdn/${id}.mp4`, duration: '5' }] } });
    expect(await emulator.handle(request('GET', `/cdn/${id}.mp4`, undefined, ''), BASE)).toEqual({
      status: 200,
      video: { file: '/sample.mp4' },
    });
    expect((await emulator.handle(request('GET', `/v1/videos/image2video/${id}`), BASE)).status).toBe(404);
    expect(emulator.creates.map((c) => c.endpoint)).toEqual(['text2video']);
  });

  it.each([
    ['[simulate:moderation]', 'Failure to pass the risk control system (simulated)'],
    ['[simulate:fail]', 'Video generation failed (simulated)'],
  ])('ends a task whose prompt holds %s failed', async (marker, message) => {
    const id = body(await create(`x ${marker}`))!.data.task_id as string;
    time += SIMULATED_DONE_MS;
    expect((await query(id)).data).toMatchObject({ task_status: 'failed', task_status_msg: message });
  });

  it('refuses [simulate:reject] with 400/1301 and [simulate:busy] with 429/1303, and checks the body', async () => {
    expect(body(await create('x [simulate:reject]'))).toMatchObject({ code: 1301 });
    expect((await create('x [simulate:busy]')).status).toBe(429);
    expect(body(await create('p', 'text2video', { duration: '7' }))).toMatchObject({ code: 1201 });
    expect(body(await create('p', 'image2video'))).toMatchObject({ code: 1201 });
    expect(body(await create('p', 'text2video', { model_name: 'kling-v9' }))).toMatchObject({ code: 1201 });
    expect(emulator.creates).toHaveLength(0);
  });

  it('serves omni-video: kling-v3-omni created and queried on its own path, its rules refused with 1201, units on success', async () => {
    const omni = (extra: object) =>
      emulator.handle(
        request('POST', '/v1/videos/omni-video', {
          model_name: 'kling-v3-omni',
          prompt: 'p',
          duration: '12',
          aspect_ratio: '16:9',
          ...extra,
        }),
        BASE,
      );
    for (const refused of [
      { model_name: 'kling-v2-6' },
      { duration: '16' },
      { duration: 12 },
      { aspect_ratio: undefined },
      { image_list: [{ image_url: 'u', type: 'end_frame' }] },
      { sound: 'on', video_list: [{ video_url: 'v', refer_type: 'feature' }] },
      { multi_shot: true, shot_type: 'customize', multi_prompt: [{ index: 1, prompt: 'a', duration: '5' }] },
    ])
      expect(body(await omni(refused))).toMatchObject({ code: 1201 });
    expect(body(await create('p', 'text2video', { model_name: 'kling-v3-omni' }))).toMatchObject({ code: 1201 });
    const created = await omni({
      mode: 'pro',
      sound: 'on',
      aspect_ratio: undefined,
      image_list: [{ image_url: 'u', type: 'first_frame' }],
    });
    const id = body(created)!.data.task_id as string;
    expect((await emulator.handle(request('GET', `/v1/videos/text2video/${id}`), BASE)).status).toBe(404);
    time += SIMULATED_DONE_MS;
    expect((await query(id, 'omni-video')).data).toMatchObject({ task_status: 'succeed', final_unit_deduction: '14.4' });
    expect(emulator.creates.map((c) => c.endpoint)).toEqual(['omni-video']);
  });

  it("refuses omni-video's video_list as Kling would: one video, base or feature, no duration or aspect ratio beside a base one, a URL it can fetch", async () => {
    const omni = (extra: object) =>
      emulator.handle(request('POST', '/v1/videos/omni-video', { model_name: 'kling-v3-omni', prompt: 'p', ...extra }), BASE);
    const video = (changes: object = {}) => ({ video_url: 'http://127.0.0.1:9/source.mp4', refer_type: 'base', ...changes });
    for (const refused of [
      { video_list: [video(), video()] },
      { video_list: [video({ refer_type: 'style' })] },
      { video_list: [video({ keep_original_sound: true })] },
      { video_list: [video({ video_url: '' })] },
      { video_list: [video()], duration: '5' },
      { video_list: [video()], aspect_ratio: '16:9' },
      // Well formed, but nothing answers at the URL.
      { video_list: [video()] },
      { video_list: [video({ refer_type: 'feature' })], duration: '5', aspect_ratio: '16:9' },
    ])
      expect(body(await omni(refused))).toMatchObject({ code: 1201 });
    expect(emulator.creates).toEqual([]);
  });

  it('answers Kling 401s for a missing, wrongly signed, early or expired token, and logs the claims of good ones', async () => {
    const call = (authorization: string) => emulator.handle(request('GET', '/v1/videos/text2video/1', undefined, authorization), BASE);
    expect(body(await call(''))).toMatchObject({ code: 1001 });
    expect(body(await call(token('wrong')))).toMatchObject({ code: 1002 });
    expect(body(await call(token('secret', Date.now() + 60_000)))).toMatchObject({ code: 1003 });
    expect(body(await call(token('secret', Date.now() - 3600_000)))).toMatchObject({ code: 1004 });
    expect(emulator.tokens).toHaveLength(0);
    expect((await call(token())).status).toBe(404);
    expect(emulator.tokens).toEqual([{ iss: 'AK', exp: expect.any(Number), nbf: expect.any(Number) }]);
    expect(emulator.requests).toHaveLength(5);
  });

  it('delivers each task the video it asked: its duration, its mode as a resolution, its aspect ratio and sound', async () => {
    const { seen, state } = recordingEmulatorState(() => time);
    emulator = new KlingEmulator({ accessKey: 'AK', secretKey: 'secret', ...state });
    // As the gateway sends them: kling-v2-6 at 1080p (pro) with sound, kling-v2-5-turbo from an image at 720p (std).
    const sent: Array<[string, KlingTaskRequest]> = [
      ['kling-v2-6', { endpoint: 'text2video', prompt: 'a fox', duration: 10, mode: 'pro', aspectRatio: '9:16', extra: { sound: 'on' } }],
      [
        'kling-v2-5-turbo',
        { endpoint: 'image2video', prompt: 'a fox', duration: 5, mode: 'std', image: { url: 'https://x.test/a.png' }, extra: {} },
      ],
    ];
    for (const [model, task] of sent) {
      const wire = buildKlingBody(task, model, () => '');
      const id = body(await emulator.handle(request('POST', `/v1/videos/${task.endpoint}`, wire), BASE))!.data.task_id as string;
      time += SIMULATED_DONE_MS;
      expect(await emulator.handle(request('GET', `/cdn/${id}.mp4`, undefined, ''), BASE)).toEqual({
        status: 200,
        video: { bytes: Buffer.from('x') },
      });
    }
    expect(seen).toEqual([
      { seconds: 10, resolution: '1080p', aspectRatio: '9:16', audio: true },
      { seconds: 5, resolution: '720p' },
    ]);
  });
});
