import { emulatorState, recordingEmulatorState } from '../../shared/emulator.spec-support';
import type { EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { BETA_SUBMIT_PATH } from '../beta-protocol';
import { BetaEmulator, SIMULATED_DONE_MS, SIMULATED_PENDING_MS } from './beta-emulator';

const BASE = 'http://sim.test/simulator/beta';

/** The emulator as the embedded simulator runs it: tasks follow the clock, prompt markers, the Bearer key, signed links. */
describe('BetaEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: BetaEmulator;
  const request = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}): EmulatorRequest => ({
    method,
    path,
    query: new URL(path, 'http://x').searchParams,
    headers: { authorization: 'Bearer key', 'x-dashscope-async': 'enable', ...headers },
    json,
  });
  const body = (reply: EmulatorReply): any => ('json' in reply ? reply.json : 'raw' in reply ? JSON.parse(String(reply.raw)) : null);
  const submit = (prompt: string, extra: object = {}, model = 'beta-1.0-t2v') =>
    emulator.handle(request('POST', BETA_SUBMIT_PATH, { model, input: { prompt }, parameters: { resolution: '720P' }, ...extra }), BASE);
  const query = async (id: string) => body(await emulator.handle(request('GET', `/api/v1/tasks/${id}`), BASE));
  const fetchVideo = (url: string) => {
    const link = new URL(url);
    return emulator.handle(
      { method: 'GET', path: link.pathname.slice('/simulator/beta'.length), query: link.searchParams, headers: {} },
      BASE,
    );
  };

  beforeEach(() => {
    time = Date.UTC(2026, 0, 1, 12);
    emulator = new BetaEmulator({ apiKey: 'key', ...emulatorState(() => time), linkKey: () => 'link-key' });
  });

  it('moves a task PENDING -> RUNNING -> SUCCEEDED by the clock, with float usage and a signed link that needs no key', async () => {
    const created = body(await submit('a fox'));
    expect(created).toEqual({ request_id: expect.any(String), output: { task_id: expect.any(String), task_status: 'PENDING' } });
    const id = created.output.task_id as string;
    expect((await query(id)).output).toEqual({ task_id: id, task_status: 'PENDING', submit_time: '2026-01-01 12:00:00.000' });
    time += SIMULATED_PENDING_MS;
    expect((await query(id)).output).toMatchObject({ task_status: 'RUNNING', scheduled_time: '2026-01-01 12:00:02.000' });
    time += SIMULATED_DONE_MS;
    const done = await emulator.handle(request('GET', `/api/v1/tasks/${id}`), BASE);
    expect(String('raw' in done && done.raw)).toContain('"usage":{"duration":5.0,"input_video_duration":0.0');
    const answer = body(done);
    expect(answer.output).toMatchObject({ task_status: 'SUCCEEDED', end_time: '2026-01-01 12:00:06.000', orig_prompt: 'a fox' });
    expect(answer.usage).toEqual({
      duration: 5,
      input_video_duration: 0,
      output_video_duration: 5,
      video_count: 1,
      SR: 720,
      ratio: '16:9',
    });
    const url = answer.output.video_url as string;
    expect(url).toMatch(new RegExp(`^${BASE}/videos/${id}\\.mp4\\?Expires=\\d+&OSSAccessKeyId=emulator&Signature=[\\w-]+$`));
    expect(await fetchVideo(url)).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    expect((await fetchVideo(url.replace(/Signature=[^&]+/, 'Signature=forged'))).status).toBe(403);
    time += 25 * 3600_000;
    expect(await fetchVideo(url)).toMatchObject({ status: 403, type: 'application/xml' });
  });

  it.each([
    ['[simulate:fail]', 'InternalError.Algo'],
    ['[simulate:moderation]', 'DataInspectionFailed'],
  ])('ends a task whose prompt holds %s FAILED with %s', async (marker, code) => {
    const id = body(await submit(`x ${marker}`)).output.task_id as string;
    time += SIMULATED_DONE_MS;
    expect((await query(id)).output).toMatchObject({ task_status: 'FAILED', code, end_time: expect.any(String) });
  });

  it('refuses reject and busy markers, a missing async header, a bad key, a bad body; UNKNOWN for ids it never saw', async () => {
    expect(body(await submit('x [simulate:reject]'))).toMatchObject({ code: 'InvalidParameter' });
    expect(await submit('x [simulate:busy]')).toMatchObject({ status: 429, json: { code: 'Throttling.RateQuota' } });
    expect(await submit('p', { model: 'beta-9' })).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
    expect(await submit(' ')).toMatchObject({ status: 400, json: { code: 'BadRequest.EmptyInput' } });
    expect(await submit('p', { parameters: { duration: 20 } })).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
    const edit = { input: { prompt: 'p', media: [{ type: 'video', url: 'https://x/a.mp4' }] }, parameters: { duration: 5 } };
    expect(await submit('p', edit, 'beta-1.0-video-edit')).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
    const sync = await emulator.handle(request('POST', BETA_SUBMIT_PATH, {}, { 'x-dashscope-async': '' }), BASE);
    expect(sync).toMatchObject({ status: 403, json: { code: 'AccessDenied' } });
    const noKey = await emulator.handle(request('GET', '/api/v1/tasks/x', undefined, { authorization: 'Bearer other' }), BASE);
    expect(noKey).toMatchObject({ status: 401, json: { code: 'InvalidApiKey' } });
    expect((await query('nope')).output).toEqual({ task_id: 'nope', task_status: 'UNKNOWN' });
    expect(emulator.createdTaskIds()).toHaveLength(0);
  });

  it('serves beta-2.0-t2v, which an operator adds as a catalog entry, at 2 to 20 s and also 480P', async () => {
    const wider = (parameters: Record<string, unknown>) => submit('p', { parameters }, 'beta-2.0-t2v');
    expect(body(await wider({ resolution: '480P', duration: 20 })).output.task_status).toBe('PENDING');
    expect(await wider({ resolution: '480P', duration: 21 })).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
    expect(await submit('p', { parameters: { resolution: '480P' } })).toMatchObject({ status: 400, json: { code: 'InvalidParameter' } });
  });

  it('follows a script, queued errors, a rescripted task and expired links (as the tests drive it)', async () => {
    emulator.scriptNext(['RUNNING', { http: 500, body: { code: 'InternalError' } }, 'SUCCEEDED']);
    const id = body(await submit('p')).output.task_id as string;
    emulator.failNextQuery({ status: 502, code: 'Busy' });
    expect(await emulator.handle(request('GET', `/api/v1/tasks/${id}`), BASE)).toMatchObject({ status: 502, json: { code: 'Busy' } });
    expect((await query(id)).output.task_status).toBe('RUNNING');
    expect((await emulator.handle(request('GET', `/api/v1/tasks/${id}`), BASE)).status).toBe(500);
    const url = (await query(id)).output.video_url as string;
    expect((await fetchVideo(url)).status).toBe(200);
    emulator.expireVideoLinks();
    expect((await fetchVideo(url)).status).toBe(403);
    expect((await fetchVideo((await query(id)).output.video_url)).status).toBe(200);
    await emulator.scriptTask(id, [{ status: 'CANCELED' }]);
    expect((await query(id)).output.task_status).toBe('CANCELED');
    emulator.failNextSubmit({ status: 400, code: 'DataInspectionFailed', headers: { 'x-a': '1' } });
    expect(await submit('p')).toMatchObject({ status: 400, headers: { 'x-a': '1' }, json: { code: 'DataInspectionFailed' } });
    expect(emulator.createdTaskIds()).toEqual([id]);
  });
});

describe('BetaEmulator (the video made to order)', () => {
  it('asks the video source for the duration, resolution and ratio the task asked', async () => {
    const { seen, state } = recordingEmulatorState();
    const emulator = new BetaEmulator({ apiKey: 'key', ...state, linkKey: () => 'link-key', defaultScript: ['SUCCEEDED'] });
    const call = (method: string, path: string, json?: unknown, query = new URLSearchParams()) =>
      emulator.handle({ method, path, query, headers: { authorization: 'Bearer key', 'x-dashscope-async': 'enable' }, json }, BASE);
    const parameters = { resolution: '720P', ratio: '9:16', duration: 8, watermark: false };
    const created = await call('POST', BETA_SUBMIT_PATH, { model: 'beta-1.0-t2v', input: { prompt: 'p' }, parameters });
    const id = (created as { json: { output: { task_id: string } } }).json.output.task_id;
    const done = await call('GET', `/api/v1/tasks/${id}`);
    const link = new URL(JSON.parse(String('raw' in done && done.raw)).output.video_url);
    const video = await call('GET', link.pathname.slice('/simulator/beta'.length), undefined, link.searchParams);
    expect(video).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 8, resolution: '720P', aspectRatio: '9:16' }]);

    // A video edit says no duration: it is made as long as its model makes (what the gateway charges it).
    const edit = await call('POST', BETA_SUBMIT_PATH, {
      model: 'beta-1.0-video-edit',
      input: { prompt: 'p', media: [{ type: 'video', url: 'https://example.com/in.mp4' }] },
      parameters: { resolution: '1080P' },
    });
    const editId = (edit as { json: { output: { task_id: string } } }).json.output.task_id;
    const edited = await call('GET', `/api/v1/tasks/${editId}`);
    const editLink = new URL(JSON.parse(String('raw' in edited && edited.raw)).output.video_url);
    await call('GET', editLink.pathname.slice('/simulator/beta'.length), undefined, editLink.searchParams);
    expect(seen[1]).toEqual({ seconds: 15, resolution: '1080P', aspectRatio: undefined });
  });
});
