import { emulatorRequest, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';
import { buildWanBody } from '../wan-protocol';
import { startSourceVideoServer, type SourceVideoServer } from '../../../../test/support/source-video-server';
import { SIMULATED_DONE_MS, SIMULATED_PENDING_MS, WanEmulator } from './wan-emulator';

const BASE = 'http://sim.test/simulator/wan';
const CREATE = '/api/v1/services/aigc/video-generation/video-synthesis';

/** The emulator as the embedded simulator runs it: tasks follow the clock. */
describe('WanEmulator (clock-driven, as the simulator)', () => {
  let time = 1_000_000;
  const { seen, state } = recordingEmulatorState(() => time);
  const emulator = new WanEmulator({ apiKey: 'sk-k0000000', ...state });
  const request = (method: string, path: string, json?: unknown, async = true) => {
    const req = emulatorRequest(method, path, json, 'Bearer sk-k0000000');
    return async ? { ...req, headers: { ...req.headers, 'x-dashscope-async': 'enable' } } : req;
  };
  const legacyText = buildWanBody(
    {
      protocol: 'legacy',
      mode: 'text-to-video',
      input: { prompt: 'a fox', duration: 10, resolution: '1080P', ratio: '9:16', audio: false },
      images: {},
      extra: {},
    },
    'wan2.6-t2v',
    () => '',
  );

  it('delivers the video a legacy create asked (10 s, 1080x1920, silent), with the times and usage DashScope writes', async () => {
    const id = replyJson(await emulator.handle(request('POST', CREATE, legacyText), BASE))!.output.task_id as string;
    time += SIMULATED_DONE_MS;
    const done = replyJson(await emulator.handle(request('GET', `/api/v1/tasks/${id}`), BASE))!;
    expect(done.output).toMatchObject({
      task_status: 'SUCCEEDED',
      submit_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/),
      orig_prompt: 'a fox',
      actual_prompt: expect.any(String),
    });
    expect(done.usage).toEqual({ duration: 10, video_count: 1, SR: 1080, size: '1080*1920' });
    const link = new URL(done.output.video_url as string);
    expect(await emulator.handle(request('GET', link.pathname.replace('/simulator/wan', '')), BASE)).toEqual({
      status: 200,
      video: { bytes: Buffer.from('x') },
    });
    expect(seen).toEqual([{ seconds: 10, resolution: '1080p', size: '1080x1920', audio: false }]);
  });

  it('refuses a create without X-DashScope-Async (403), a float duration and an i2v without its image (400 InvalidParameter)', async () => {
    expect(await emulator.handle(request('POST', CREATE, legacyText, false), BASE)).toMatchObject({
      status: 403,
      json: { code: 'AccessDenied' },
    });
    const float = { ...legacyText, parameters: { ...(legacyText.parameters as object), duration: 5.5 } };
    expect(await emulator.handle(request('POST', CREATE, float), BASE)).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
    const noImage = { model: 'wan2.7-i2v', input: { prompt: 'p' }, parameters: { resolution: '720P', duration: 5 } };
    expect(await emulator.handle(request('POST', CREATE, noImage), BASE)).toMatchObject({
      status: 400,
      json: { code: 'InvalidParameter' },
    });
    const lowerCase = { model: 'wan2.7-t2v', input: { prompt: 'p' }, parameters: { resolution: '720p', duration: 5 } };
    expect(await emulator.handle(request('POST', CREATE, lowerCase), BASE)).toMatchObject({ status: 400 });
  });

  it('cancels only while PENDING; an unknown id reads UNKNOWN (200)', async () => {
    const body = { model: 'wan2.7-t2v', input: { prompt: 'p' }, parameters: { resolution: '720P', duration: 5 } };
    const first = replyJson(await emulator.handle(request('POST', CREATE, body), BASE))!.output.task_id as string;
    expect(await emulator.handle(request('POST', `/api/v1/tasks/${first}/cancel`), BASE)).toMatchObject({ status: 200 });
    const second = replyJson(await emulator.handle(request('POST', CREATE, body), BASE))!.output.task_id as string;
    time += SIMULATED_PENDING_MS;
    expect(await emulator.handle(request('POST', `/api/v1/tasks/${second}/cancel`), BASE)).toMatchObject({
      status: 400,
      json: { code: 'UnsupportedOperation' },
    });
    expect(replyJson(await emulator.handle(request('GET', `/api/v1/tasks/${first}`), BASE))!.output.task_status).toBe('CANCELED');
    expect(replyJson(await emulator.handle(request('GET', '/api/v1/tasks/nope'), BASE))!.output.task_status).toBe('UNKNOWN');
  });
});

/** wan2.7-videoedit's `video` and wan2.7-i2v's `first_clip`: links DashScope fetches, each 2 to 10 s. */
describe('WanEmulator source videos', () => {
  let videos: SourceVideoServer;
  let time = 1_000_000;
  const { seen, state } = recordingEmulatorState(() => time);
  const emulator = new WanEmulator({ apiKey: 'sk-k0000000', ...state });
  const create = async (body: object) => {
    const req = emulatorRequest('POST', CREATE, body, 'Bearer sk-k0000000');
    return emulator.handle({ ...req, headers: { ...req.headers, 'x-dashscope-async': 'enable' } }, BASE);
  };
  const edit = (url: string, parameters: object = {}) =>
    create({
      model: 'wan2.7-videoedit',
      input: { prompt: 'clay', media: [{ type: 'video', url }] },
      parameters: { resolution: '720P', ...parameters },
    });
  const extend = (media: object[]) =>
    create({ model: 'wan2.7-i2v', input: { prompt: 'on', media }, parameters: { resolution: '720P', duration: 9 } });

  beforeAll(async () => {
    videos = await startSourceVideoServer([4, 12]);
  });
  afterAll(() => videos?.close());

  it("an edit makes its source's length (or the cut asked, no longer than the source); a source past 10 s is refused", async () => {
    const id = replyJson(await edit(videos.linkOf(4), { audio_setting: 'origin' }))!.output.task_id as string;
    expect(emulator.sourceFetches.at(-1)).toMatchObject({ url: videos.linkOf(4), seconds: 4 });
    time += SIMULATED_DONE_MS;
    const done = replyJson(await emulator.handle(emulatorRequest('GET', `/api/v1/tasks/${id}`, undefined, 'Bearer sk-k0000000'), BASE))!;
    expect(done.usage).toMatchObject({ duration: 4, input_video_duration: 4 });
    // The video delivered is what the edit asked: the source's length and frame.
    const link = new URL(done.output.video_url as string);
    await emulator.handle(emulatorRequest('GET', link.pathname.replace('/simulator/wan', ''), undefined, ''), BASE);
    expect(seen.at(-1)).toMatchObject({ seconds: 4, size: '160x90' });
    for (const reply of [
      await edit(videos.linkOf(12)),
      await edit(videos.linkOf(4), { duration: 6 }),
      await edit(videos.linkOf(4), { audio_setting: 'loud' }),
    ])
      expect(reply).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
    expect(await edit(`${videos.linkOf(4)}.missing`)).toMatchObject({ status: 400, json: { code: 'InvalidFile.DownloadFailed' } });
  });

  it('an extension takes first_clip instead of a first frame (a last frame may follow, no driving audio)', async () => {
    const clip = { type: 'first_clip', url: videos.linkOf(4) };
    expect((await extend([clip])).status).toBe(200);
    expect((await extend([clip, { type: 'last_frame', url: 'https://x.test/l.png' }])).status).toBe(200);
    for (const more of [
      { type: 'first_frame', url: 'https://x.test/f.png' },
      { type: 'driving_audio', url: 'https://x.test/a.mp3' },
    ])
      expect(await extend([clip, more])).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
  });
});
