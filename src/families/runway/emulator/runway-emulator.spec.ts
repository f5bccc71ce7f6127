import { emulatorCaller, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';
import { RUNWAY_API_VERSION } from '../runway-protocol';
import { RunwayEmulator } from './runway-emulator';

const BASE = 'http://sim.test/simulator/runway';

describe('RunwayEmulator (the video made to order)', () => {
  it('asks the video source for the duration, the ratio as an exact frame and the audio the task asked', async () => {
    const { seen, state } = recordingEmulatorState();
    const emulator = new RunwayEmulator({ apiKey: 'key', ...state, defaultScript: ['SUCCEEDED'] });
    const call = emulatorCaller(emulator, BASE, { authorization: 'Bearer key', 'x-runway-version': RUNWAY_API_VERSION });
    const body = { model: 'veo3.1_fast', promptText: 'a fox', ratio: '1080:1920', duration: 6, audio: false };
    const { id } = replyJson(await call('POST', '/v1/text_to_video', body))!;
    const task = replyJson(await call('GET', `/v1/tasks/${id}`))!;
    expect(task).toMatchObject({ status: 'SUCCEEDED' });
    expect(await call('GET', task.output[0])).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 6, size: '1080x1920', audio: false }]);
  });
});
