import { buildMinimaxSubmitBody } from '../minimax-protocol';
import { MinimaxEmulator, SIMULATED_DONE_MS, SIMULATED_QUEUED_MS } from './minimax-emulator';
import { emulatorState, keyedRequests, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';

const BASE = 'http://sim.test/simulator/minimax';

/** The emulator as the embedded simulator runs it: tasks follow the clock, prompt markers, the key on every API call. */
describe('MinimaxEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: MinimaxEmulator;
  const request = keyedRequests('authorization', 'k', (key) => `Bearer ${key}`);
  const submit = async (prompt: string, extra: object = {}) =>
    replyJson(
      await emulator.handle(request('POST', '/v1/video_generation', { model: 'MiniMax-Hailuo-2.3', prompt, duration: 6, ...extra }), BASE),
    )!;
  const get = async (target: string, key: string | null = 'k') => emulator.handle(request('GET', target, undefined, key), BASE);
  const query = async (id: string) => replyJson(await get(`/v1/query/video_generation?task_id=${id}`))!;

  beforeEach(() => {
    time = 1_000_000_000;
    emulator = new MinimaxEmulator({ apiKey: 'k', ...emulatorState(() => time) });
  });

  it('moves a task Queueing -> Processing -> Success by the clock; its file has its own id and a signed, expiring URL', async () => {
    const { task_id: id, base_resp } = await submit('waves', { resolution: '1080P' });
    expect(base_resp.status_code).toBe(0);
    expect((await query(id)).status).toBe('Queueing');
    time += SIMULATED_QUEUED_MS;
    expect((await query(id)).status).toBe('Processing');
    time += SIMULATED_DONE_MS;
    const done = await query(id);
    expect(done).toMatchObject({ status: 'Success', video_width: 1920, video_height: 1080 });
    expect(done.file_id).not.toBe(id);
    expect(replyJson(await get(`/v1/files/retrieve?file_id=${id}`))!.base_resp.status_code).toBe(2013);
    const url = new URL(replyJson(await get(`/v1/files/retrieve?file_id=${done.file_id}`))!.file.download_url as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/cdn/${done.file_id}/output.mp4`);
    const cdn = (search: string) => get(`/cdn/${done.file_id}/output.mp4${search}`, null);
    expect(await cdn(url.search)).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    expect((await cdn(url.search.replace(/Signature=\w+/, 'Signature=forged'))).status).toBe(403);
    time += 32_401_000;
    expect((await cdn(url.search)).status).toBe(403);
  });

  it.each([
    ['[simulate:fail]', 1000],
    ['[simulate:moderation]', 1027],
  ])('ends a task whose prompt holds %s Fail with %i', async (marker, code) => {
    const { task_id: id } = await submit(`x ${marker}`);
    time += SIMULATED_DONE_MS;
    expect(await query(id)).toMatchObject({ status: 'Fail', base_resp: { status_code: code } });
  });

  it.each([
    [{ prompt: 'x [simulate:reject]' }, 1026],
    [{ prompt: 'x [simulate:busy]' }, 1002],
    [{ prompt: 'x [simulate:broke]' }, 1008],
    [{ duration: 10, resolution: '1080P' }, 2013],
    [{ model: 'MiniMax-Hailuo-2.3-Fast' }, 2013],
    [{ model: 'T2V-99' }, 2013],
  ])('refuses a submit %j with HTTP 200 and base_resp %i', async (change, code) => {
    expect(await submit('p', change)).toEqual({ task_id: '', base_resp: { status_code: code, status_msg: expect.any(String) } });
  });

  it('answers a wrong key with 1004 and an unknown task with 2013 and no status (a probe proves the key)', async () => {
    expect(replyJson(await get('/v1/query/video_generation?task_id=1', 'wrong'))!.base_resp.status_code).toBe(1004);
    expect(await query('0')).toEqual({ task_id: '', base_resp: { status_code: 2013, status_msg: 'invalid params, task not found' } });
    expect(emulator.requests).toHaveLength(2);
  });

  it('delivers a task the video it asked: its duration and resolution', async () => {
    const { seen, state } = recordingEmulatorState(() => time);
    emulator = new MinimaxEmulator({ apiKey: 'k', ...state });
    // As the gateway sends it: 10 s at 768P.
    const wire = buildMinimaxSubmitBody(
      { prompt: 'waves', duration: 10, resolution: '768P', metadata: {} },
      'MiniMax-Hailuo-2.3',
      () => '',
    );
    const { task_id: id } = replyJson(await emulator.handle(request('POST', '/v1/video_generation', wire), BASE))!;
    time += SIMULATED_DONE_MS;
    const { file_id: fileId } = await query(id);
    const url = new URL(replyJson(await get(`/v1/files/retrieve?file_id=${fileId}`))!.file.download_url as string);
    expect(await get(`/cdn/${fileId}/output.mp4${url.search}`, null)).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 10, resolution: '768P' }]);
  });
});
