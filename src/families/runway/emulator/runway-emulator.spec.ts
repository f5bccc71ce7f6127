import { recordingVideoSource } from '../../shared/family.spec-support';
import { memoryRecords } from '../../simulator-shared/emulator-http';
import { RUNWAY_API_VERSION } from '../runway-protocol';
import { RunwayEmulator } from './runway-emulator';

const BASE = 'http://sim.test/simulator/runway';

describe('RunwayEmulator (the video made to order)', () => {
  it('asks the video source for the duration, the ratio as an exact frame and the audio the task asked', async () => {
    const { seen, source } = recordingVideoSource();
    const emulator = new RunwayEmulator({
      apiKey: 'key',
      records: memoryRecords(() => Date.now()),
      now: () => Date.now(),
      video: source,
      defaultScript: ['SUCCEEDED'],
    });
    const headers = { authorization: 'Bearer key', 'x-runway-version': RUNWAY_API_VERSION };
    /** A call to a path below the mount, or to a URL the emulator handed out (its mount stripped). */
    const call = (method: string, target: string, json?: unknown) => {
      const url = new URL(target.replace(BASE, ''), 'http://x');
      return emulator.handle({ method, path: url.pathname, query: url.searchParams, headers, json }, BASE) as Promise<{
        status: number;
        json?: any;
      }>;
    };
    const body = { model: 'veo3.1_fast', promptText: 'a fox', ratio: '1080:1920', duration: 6, audio: false };
    const { id } = (await call('POST', '/v1/text_to_video', body)).json;
    const task = (await call('GET', `/v1/tasks/${id}`)).json;
    expect(task).toMatchObject({ status: 'SUCCEEDED' });
    expect(await call('GET', task.output[0])).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 6, size: '1080x1920', audio: false }]);
  });
});
