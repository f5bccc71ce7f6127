import { emulatorState, recordingEmulatorState } from '../../shared/emulator.spec-support';
import type { EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { OpenAiEmulator, SIMULATED_DONE_MS, SIMULATED_QUEUED_MS, SORA_RULES } from './openai-emulator';

/** The emulator as the embedded simulator runs it: sora rules, videos follow the clock, prompt markers, the Bearer key. */
describe('OpenAiEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: OpenAiEmulator;
  const request = (method: string, target: string, extra: Partial<EmulatorRequest> = {}): EmulatorRequest => {
    const url = new URL(target, 'http://x');
    return { method, path: url.pathname, query: url.searchParams, headers: { authorization: 'Bearer key' }, ...extra };
  };
  const body = (reply: EmulatorReply): any => ('json' in reply ? reply.json : null);
  const create = (fields: Record<string, unknown>) =>
    emulator.handle(request('POST', '/videos', { json: { model: 'sora-2', prompt: 'a fox', ...fields } }));
  const get = async (id: string) => body(await emulator.handle(request('GET', `/videos/${id}`)));

  beforeEach(() => {
    time = 1_800_000_000_000;
    emulator = new OpenAiEmulator({ apiKey: 'key', ...emulatorState(() => time), rules: SORA_RULES });
  });

  it('moves a video queued -> in_progress -> completed by the clock, then serves its content and lists it', async () => {
    const created = body(await create({ seconds: '8', size: '1280x720' }));
    expect(created).toEqual({
      id: expect.stringMatching(/^video_[0-9a-f]{24}$/),
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      progress: 0,
      created_at: 1_800_000_000,
      seconds: '8',
      size: '1280x720',
    });
    const content = () => emulator.handle(request('GET', `/videos/${created.id}/content`));
    expect((await content()).status).toBe(400);
    time += SIMULATED_QUEUED_MS + 2_000;
    expect(await get(created.id)).toMatchObject({ status: 'in_progress', progress: 50 });
    time += SIMULATED_DONE_MS;
    expect(await get(created.id)).toMatchObject({ status: 'completed', progress: 100, completed_at: 1_800_000_006 });
    expect(await content()).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    expect((await emulator.handle(request('GET', `/videos/${created.id}/content?variant=thumbnail`))).status).toBe(404);
    const list = body(await emulator.handle(request('GET', '/videos')));
    expect(list).toMatchObject({ object: 'list', data: [{ id: created.id, status: 'completed' }], first_id: created.id });
  });

  it('takes a multipart form as a JSON body', async () => {
    const form = { fields: { model: 'sora-2-pro', prompt: 'p', seconds: '12' }, files: [] };
    const created = body(await emulator.handle(request('POST', '/videos', { form })));
    expect(created).toMatchObject({ model: 'sora-2-pro', seconds: '12', size: '720x1280', status: 'queued' });
  });

  it.each([
    ['[simulate:fail]', 'video_generation_failed'],
    ['[simulate:moderation]', 'moderation_blocked'],
  ])('ends a video whose prompt holds %s failed with %s', async (marker, code) => {
    const { id } = body(await create({ prompt: `x ${marker}` }));
    time += SIMULATED_DONE_MS;
    expect(await get(id)).toMatchObject({ status: 'failed', progress: 100, error: { code } });
  });

  it('refuses a bad key, the markers, and what the sora rules do not take', async () => {
    const noKey = await emulator.handle(request('GET', '/videos', { headers: { authorization: 'Bearer other' } }));
    expect(noKey).toMatchObject({ status: 401, json: { error: { code: 'invalid_api_key', type: 'authentication_error' } } });
    expect(await create({ prompt: 'x [simulate:reject]' })).toMatchObject({ status: 400, json: { error: { code: 'moderation_blocked' } } });
    expect(await create({ prompt: 'x [simulate:busy]' })).toMatchObject({ status: 429, headers: { 'Retry-After': '5' } });
    expect(body(await create({ model: 'studio-1' })).error).toMatchObject({ param: 'model' });
    expect(body(await create({ seconds: '7' })).error).toMatchObject({ param: 'seconds' });
    expect(body(await create({ size: '1x1' })).error).toMatchObject({ param: 'size' });
    expect(body(await create({ prompt: '' })).error).toMatchObject({ param: 'prompt' });
    expect(await emulator.handle(request('GET', '/videos/nope'))).toMatchObject({ status: 404 });
    expect(body(await emulator.handle(request('GET', '/videos'))).data).toEqual([]);
  });

  it('with no rules takes any model, and follows scripts and queued failures (as the tests drive it)', async () => {
    emulator = new OpenAiEmulator({ apiKey: 'key', ...emulatorState(() => time, { file: '/s.mp4' }) });
    emulator.failNextSubmit({ status: 502, headers: { 'x-a': '1' } });
    expect(await create({ model: 'studio-1', seconds: '5' })).toMatchObject({ status: 502, headers: { 'x-a': '1' } });
    emulator.scriptNext(['in_progress', { body: { status: 'archiving' } }, { status: 'failed', code: 'x' }]);
    const { id } = body(await create({ model: 'studio-1', seconds: '5' }));
    expect(await get(id)).toMatchObject({ status: 'in_progress', progress: 40 });
    expect(await get(id)).toEqual({ status: 'archiving' });
    expect(await get(id)).toMatchObject({ status: 'failed', error: { code: 'x' } });
    expect(await get(id)).toMatchObject({ status: 'failed' });
  });
});

describe('OpenAiEmulator (the video made to order)', () => {
  it('asks the video source for the seconds and size the video was created with', async () => {
    const { seen, state } = recordingEmulatorState();
    const emulator = new OpenAiEmulator({ apiKey: 'key', ...state, rules: SORA_RULES, defaultScript: ['completed'] });
    const call = (method: string, path: string, extra: Partial<EmulatorRequest> = {}) =>
      emulator.handle({ method, path, query: new URLSearchParams(), headers: { authorization: 'Bearer key' }, ...extra });
    const form = { fields: { model: 'sora-2', prompt: 'a fox', seconds: '8', size: '720x1280' }, files: [] };
    const { id } = ((await call('POST', '/videos', { form })) as { json: { id: string } }).json;
    expect(await call('GET', `/videos/${id}`)).toMatchObject({ json: { status: 'completed' } });
    expect(await call('GET', `/videos/${id}/content`)).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 8, size: '720x1280' }]);
  });
});
