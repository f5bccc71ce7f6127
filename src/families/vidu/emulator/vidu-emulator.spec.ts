import { emulatorRequest, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';
import { buildViduBody, type ViduTaskRequest } from '../vidu-protocol';
import { SIMULATED_DONE_MS, ViduEmulator } from './vidu-emulator';

const BASE = 'http://sim.test/simulator/vidu';

/** The emulator as the embedded simulator runs it: tasks follow the clock. */
describe('ViduEmulator (clock-driven, as the simulator)', () => {
  it('delivers each task the video it asked: duration, resolution, aspect ratio, and audio (q3) or bgm', async () => {
    let time = 1_000_000;
    const { seen, state } = recordingEmulatorState(() => time);
    const emulator = new ViduEmulator({ apiKey: 'k', ...state });
    const request = (method: string, path: string, json?: unknown) => emulatorRequest(method, path, json, 'Token k');
    // As the gateway sends them: viduq3-pro silent at 540p 9:16, viduq2-pro from an image at 1080p with bgm.
    const sent: Array<[string, ViduTaskRequest, string[]]> = [
      [
        'viduq3-pro',
        {
          endpoint: 'text2video',
          prompt: 'a fox',
          duration: 8,
          resolution: '540p',
          aspectRatio: '9:16',
          audio: { field: 'audio', value: false },
          extra: {},
        },
        [],
      ],
      [
        'viduq2-pro',
        { endpoint: 'img2video', duration: 4, resolution: '1080p', audio: { field: 'bgm', value: true }, extra: {} },
        ['https://x.test/a.png'],
      ],
    ];
    for (const [model, task, images] of sent) {
      const created = await emulator.handle(request('POST', `/ent/v2/${task.endpoint}`, buildViduBody(task, model, images)), BASE);
      const id = replyJson(created)!.task_id as string;
      time += SIMULATED_DONE_MS;
      expect(await emulator.handle(request('GET', `/cdn/${id}.mp4`), BASE)).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    }
    expect(seen).toEqual([
      { seconds: 8, resolution: '540p', aspectRatio: '9:16', audio: false },
      { seconds: 4, resolution: '1080p', audio: true },
    ]);
  });
});
