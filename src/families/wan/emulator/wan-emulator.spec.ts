import { emulatorRequest, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';
import { buildWanBody } from '../wan-protocol';
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
