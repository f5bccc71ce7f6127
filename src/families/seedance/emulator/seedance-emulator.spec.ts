import { keyedRequests, recordingEmulatorState, replyJson } from '../../shared/emulator.spec-support';
import { startSourceVideoServer, type SourceVideoServer } from '../../../../test/support/source-video-server';
import { SIMULATED_DONE_MS, SIMULATED_QUEUED_MS, SeedanceEmulator } from './seedance-emulator';

const BASE = 'http://sim.test/simulator/seedance';
const TASKS = '/api/v3/contents/generations/tasks';
const text = (prompt: string) => ({ type: 'text', text: prompt });
const frame = (role: string) => ({ type: 'image_url', image_url: { url: 'https://x.test/a.png' }, role });

/** The emulator as the embedded simulator runs it: tasks follow the clock (upstream-protocols-wires.md 1.10). */
describe('SeedanceEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: SeedanceEmulator;
  let seen: ReturnType<typeof recordingEmulatorState>['seen'];
  const request = keyedRequests('authorization', 'k', (key) => `Bearer ${key}`);
  const call = (method: string, path: string, json?: unknown, key = 'k') => emulator.handle(request(method, path, json, key), BASE);
  const create = async (body: object) => replyJson(await call('POST', TASKS, { model: 'dreamina-seedance-2-0-260128', ...body }))!;
  const query = async (id: string) => replyJson(await call('GET', `${TASKS}/${id}`))!;

  beforeEach(() => {
    time = Date.parse('2026-12-01T10:00:00Z');
    const recorded = recordingEmulatorState(() => time);
    seen = recorded.seen;
    emulator = new SeedanceEmulator({ apiKey: 'k', ...recorded.state });
  });

  it('answers {id} only, then queued, running and succeeded with tokens; reads --flags where fields are absent; the link lasts 24 hours', async () => {
    const { id, ...rest } = await create({ content: [text('a fox --rs 480p --rt 9:16 --dur 8 --seed 3')], resolution: '720p' });
    expect(rest).toEqual({});
    expect(id).toMatch(/^cgt-20261201100000-\w{5}$/);
    expect(await query(id as string)).toMatchObject({ status: 'queued', error: null, framespersecond: 24 });
    time += SIMULATED_QUEUED_MS;
    expect(await query(id as string)).toMatchObject({ status: 'running' });
    time += SIMULATED_DONE_MS;
    const done = await query(id as string);
    // The field wins over --rs; --rt, --dur and --seed stand.
    expect(done).toMatchObject({ status: 'succeeded', resolution: '720p', ratio: '9:16', duration: 8, seed: 3 });
    expect(done.usage).toEqual({ completion_tokens: 172_800, total_tokens: 172_800 });
    const link = new URL((done.content as { video_url: string }).video_url);
    expect((await call('GET', link.pathname.replace('/simulator/seedance', '') + link.search, undefined, 'none')).status).toBe(200);
    expect(seen).toEqual([{ seconds: 8, resolution: '720p', aspectRatio: '9:16', audio: true }]);
    time += 24 * 3_600_000;
    expect((await call('GET', link.pathname.replace('/simulator/seedance', '') + link.search)).status).toBe(403);
  });

  it.each([
    ['a wrong key', { content: [text('p')] }, 'wrong', 401, 'AuthenticationError'],
    ['an unknown model', { model: 'seedance-9', content: [text('p')] }, 'k', 400, 'InvalidParameter'],
    [
      'frames mixed with references',
      { content: [text('p'), frame('first_frame'), frame('reference_image')] },
      'k',
      400,
      'InvalidParameter',
    ],
    ['an explicit ratio with a frame on 2.0', { content: [frame('first_frame')], ratio: '16:9' }, 'k', 400, 'InvalidParameter'],
    ['a last frame alone', { content: [text('p'), frame('last_frame')] }, 'k', 400, 'InvalidParameter'],
    [
      'reference audio alone',
      { content: [text('p'), { type: 'audio_url', audio_url: { url: 'https://x.test/a.mp3' }, role: 'reference_audio' }] },
      'k',
      400,
      'InvalidParameter',
    ],
    ['16 s', { content: [text('p')], duration: 16 }, 'k', 400, 'InvalidParameter'],
    ['a flagged prompt', { content: [text('x [simulate:reject]')] }, 'k', 400, 'InputTextSensitiveContentDetected'],
  ])('refuses %s as Ark does', async (_name, body, key, status, code) => {
    const reply = await call('POST', TASKS, { model: 'dreamina-seedance-2-0-260128', ...body }, key);
    expect(reply.status).toBe(status);
    expect(replyJson(reply)!.error).toMatchObject({ code, message: expect.stringMatching(/Request ID: [\w-]+$/) });
  });

  it('DELETE cancels a queued task, refuses a running one, deletes a finished one; list filters by status and ids', async () => {
    const queued = (await create({ content: [text('a')] })).id as string;
    expect((await call('DELETE', `${TASKS}/${queued}`)).status).toBe(200);
    expect(await query(queued)).toMatchObject({ status: 'cancelled' });
    expect((await call('DELETE', `${TASKS}/${queued}`)).status).toBe(400);
    const running = (await create({ content: [text('b')] })).id as string;
    time += SIMULATED_QUEUED_MS;
    expect(replyJson(await call('DELETE', `${TASKS}/${running}`))!.error).toMatchObject({ code: 'OperationDenied' });
    time += SIMULATED_DONE_MS;
    const list = replyJson(
      await call('GET', `${TASKS}?page_num=1&page_size=10&filter.status=succeeded&filter.task_ids=${running}&filter.task_ids=x`),
    )!;
    expect(list).toMatchObject({ total: 1, items: [{ id: running, status: 'succeeded' }] });
    expect((await call('DELETE', `${TASKS}/${running}`)).status).toBe(200);
    expect((await call('GET', `${TASKS}/${running}`)).status).toBe(404);
  });

  it('a task past execution_expires_after ends expired; moderation and failure markers end failed with their codes', async () => {
    const slow = (await create({ content: [text('a [simulate:expire]')] })).id as string;
    const flagged = (await create({ content: [text('a [simulate:moderation]')] })).id as string;
    const timedOut = (await create({ content: [text('a')], execution_expires_after: 3_600 })).id as string;
    time += SIMULATED_DONE_MS;
    expect(await query(slow)).toMatchObject({ status: 'expired' });
    expect(await query(flagged)).toMatchObject({ status: 'failed', error: { code: 'OutputVideoSensitiveContentDetected' } });
    expect((await query(flagged)).usage).toBeUndefined();
    expect(await query(timedOut)).toMatchObject({ status: 'succeeded' });
    time += 3_600_000;
    expect(await query(timedOut)).toMatchObject({ status: 'expired' });
  });
});

/** An edit's or extension's source: a `reference_video` link Ark fetches, its length read (2 to 15 s each, 15 s in all). */
describe('SeedanceEmulator reference videos', () => {
  let videos: SourceVideoServer;
  const request = keyedRequests('authorization', 'k', (key) => `Bearer ${key}`);
  const emulator = new SeedanceEmulator({ apiKey: 'k', ...recordingEmulatorState(() => Date.now()).state });
  const reference = (url: string) => ({ type: 'video_url', video_url: { url }, role: 'reference_video' });
  const create = (...urls: string[]) =>
    emulator.handle(
      request('POST', TASKS, {
        model: 'dreamina-seedance-2-0-260128',
        content: [text('Edit Video 1: snow'), ...urls.map(reference)],
        ratio: 'adaptive',
      }),
      BASE,
    );

  beforeAll(async () => {
    videos = await startSourceVideoServer([3, 8, 16]);
  });
  afterAll(() => videos?.close());

  it('fetches each link with no key and reads its length: 3 s taken; 16 s, 8 + 8 s or a link that fails refused', async () => {
    expect((await create(videos.linkOf(3))).status).toBe(200);
    expect(emulator.sourceFetches.at(-1)).toMatchObject({ url: videos.linkOf(3), seconds: 3, size: '160x90' });
    for (const urls of [[videos.linkOf(16)], [videos.linkOf(8), videos.linkOf(8)], [videos.linkOf(99)]]) {
      const reply = await create(...urls);
      expect(reply.status).toBe(400);
      expect(replyJson(reply)!.error).toMatchObject({ code: 'InvalidParameter' });
    }
    expect(emulator.creates).toHaveLength(1);
  });
});
