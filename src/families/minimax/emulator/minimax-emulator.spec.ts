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

describe('MinimaxEmulator, the v2 API (MiniMax-H3)', () => {
  let time: number;
  let emulator: MinimaxEmulator;
  const request = keyedRequests('authorization', 'k', (key) => `Bearer ${key}`);
  const text = (prompt: string) => [{ type: 'text', text: prompt }];
  const create = async (extra: object = {}, key: string | null = 'k') =>
    emulator.handle(
      request(
        'POST',
        '/v2/video_generation',
        { model: 'MiniMax-H3', content: text('waves'), duration: 5, resolution: '2K', ratio: '16:9', ...extra },
        key,
      ),
      BASE,
    );
  const get = async (target: string) => emulator.handle(request('GET', target, undefined, 'k'), BASE);

  beforeEach(() => {
    time = 1_000_000_000;
    emulator = new MinimaxEmulator({ apiKey: 'k', ...emulatorState(() => time) });
  });

  it('moves a task queued -> running -> succeeded, the URL inline and signed, usage in seconds; v1 does not find it', async () => {
    const created = await create({ duration: 12 });
    expect(created.status).toBe(200);
    const { task_id: id } = replyJson(created)!;
    expect(replyJson(await get(`/v2/query/video_generation/${id}`))!.task).toMatchObject({ id, status: 'queued', error: null });
    time += SIMULATED_QUEUED_MS;
    expect(replyJson(await get(`/v2/query/video_generation/${id}`))!.task.status).toBe('running');
    time += SIMULATED_DONE_MS;
    const { task } = replyJson(await get(`/v2/query/video_generation/${id}`))!;
    expect(task).toMatchObject({ status: 'succeeded', usage: { total_seconds: 12, output_seconds: 12, input_image_count: 0 } });
    const url = new URL(task.content.url as string);
    expect(
      await emulator.handle(request('GET', `${url.pathname.slice('/simulator/minimax'.length)}${url.search}`, undefined, null), BASE),
    ).toEqual({
      status: 200,
      video: { file: '/sample.mp4' },
    });
    expect(replyJson(await get(`/v1/query/video_generation?task_id=${id}`))!.base_resp.status_code).toBe(2013);
    expect(replyJson(await get('/v2/query/video_generation?page_num=1&page_size=4'))).toMatchObject({ total: 1, tasks: [{ id }] });
  });

  it.each([
    [{ content: [] }],
    [{ content: [...text('a'), ...text('b')] }],
    [{ ratio: undefined }],
    [{ ratio: 'adaptive' }],
    [{ duration: 3 }],
    [{ duration: 5.5 }],
    [{ resolution: '1080P' }],
    [{ content: [...text('a'), { type: 'image_url', image_url: { url: 'u' }, role: 'last_frame' }] }],
    [
      {
        content: [
          ...text('a'),
          { type: 'image_url', image_url: { url: 'u' } },
          { type: 'image_url', image_url: { url: 'v' }, role: 'reference_image' },
        ],
      },
    ],
    [{ content: [...text('a'), { type: 'audio_url', audio_url: { url: 'u' }, role: 'reference_audio' }] }],
    [{ content: [...text('a'), { type: 'video_url', video_url: { url: 'u' }, role: 'first_frame' }] }],
  ])('refuses %j with a 400 envelope', async (change) => {
    const reply = await create(change);
    expect(reply.status).toBe(400);
    expect(replyJson(reply)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', http_code: '400' } });
  });

  it('answers a wrong key with a 401 envelope, and queued refusals and prompt markers with their v2 types', async () => {
    expect(replyJson(await create({}, 'wrong'))).toMatchObject({ error: { type: 'authentication_error', http_code: '401' } });
    emulator.failNextSubmit(1008);
    expect((await create()).status).toBe(402);
    expect(replyJson(await create({ content: text('x [simulate:reject]') }))!.error.type).toBe('input_sensitive_error');
    expect((await create({ content: text('x [simulate:busy]') })).status).toBe(429);
  });

  it('ends scripted tasks failed (the code as a string), cancelled or expired', async () => {
    for (const [step, status] of [
      [{ fail: 1027 }, 'failed'],
      ['Cancelled', 'cancelled'],
      ['Expired', 'expired'],
    ] as const) {
      emulator.scriptNext([step]);
      const { task_id: id } = replyJson(await create())!;
      const { task } = replyJson(await get(`/v2/query/video_generation/${id}`))!;
      expect(task.status).toBe(status);
      if (status === 'failed') expect(task.error.code).toBe('1027');
    }
  });
});
