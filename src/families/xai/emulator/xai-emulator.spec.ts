import { emulatorRequest, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';
import { buildXaiBody } from '../xai-protocol';
import { SIMULATED_DONE_MS, XaiEmulator } from './xai-emulator';

const BASE = 'http://sim.test/simulator/xai';

/** The emulator as the embedded simulator runs it: requests follow the clock. */
describe('XaiEmulator (clock-driven, as the simulator)', () => {
  it('delivers a request the video it asked: duration, resolution, aspect ratio and audio', async () => {
    let time = 1_000_000;
    const { seen, state } = recordingEmulatorState(() => time);
    const emulator = new XaiEmulator({ apiKey: 'k', ...state });
    const request = (method: string, path: string, json?: unknown) => emulatorRequest(method, path, json, 'Bearer k');
    // As the gateway sends it: 12 s at 720p, 9:16, silent.
    const wire = buildXaiBody(
      { prompt: 'a fox', duration: 12, resolution: '720p', aspectRatio: '9:16', generateAudio: false, extra: {} },
      'grok-imagine-video-1.5',
      undefined,
    );
    const id = replyJson(await emulator.handle(request('POST', '/v1/videos/generations', wire), BASE))!.request_id as string;
    time += SIMULATED_DONE_MS;
    expect(await emulator.handle(request('GET', `/vidgen/xai-video-${id}.mp4`), BASE)).toEqual({
      status: 200,
      video: { bytes: Buffer.from('x') },
    });
    expect(seen).toEqual([{ seconds: 12, resolution: '720p', aspectRatio: '9:16', audio: false }]);
  });
});
