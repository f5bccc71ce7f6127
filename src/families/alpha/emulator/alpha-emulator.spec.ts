import { emulatorState, recordingEmulatorState } from '../../shared/emulator.spec-support';
import type { EmulatorReply } from '../../simulator-shared/emulator-http';
import { AlphaEmulator, AlphaEmulatorRequest, alphaErrorReply, GENERATION_MS, URL_VALIDITY_MS } from './alpha-emulator';

const BASE = 'http://sim.test/simulator/alpha';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

/** The emulator as the embedded simulator runs it: videos follow the clock, prompt markers, the provider's checks. */
describe('AlphaEmulator (clock-driven, as the simulator)', () => {
  let time: number;
  let emulator: AlphaEmulator;
  const request = (method: string, path: string, extra: Partial<AlphaEmulatorRequest> = {}, apiKey = 'key'): AlphaEmulatorRequest => ({
    method,
    path,
    query: new URLSearchParams(),
    headers: { 'api-key': apiKey },
    ...extra,
  });
  const body = (reply: EmulatorReply) =>
    'json' in reply ? (reply.json as { ErrCode: number; ErrMsg: string; Resp: Record<string, any> }) : null;
  const generate = async (json: Record<string, unknown>, kind = 'text', traceId?: string) =>
    body(
      await emulator.handle(
        request('POST', `/openapi/v2/video/${kind}/generate`, {
          json: { model: 'v6', duration: 5, quality: '720p', ...json },
          headers: { 'api-key': 'key', ...(traceId ? { 'ai-trace-id': traceId } : {}) },
        }),
        BASE,
      ),
    )!;
  const result = async (id: unknown) => body(await emulator.handle(request('GET', `/openapi/v2/video/result/${String(id)}`), BASE))!;
  const file = (url: string, method = 'GET') => {
    const link = new URL(url);
    return emulator.handle({ method, path: link.pathname.slice('/simulator/alpha'.length), query: link.searchParams, headers: {} }, BASE);
  };

  beforeEach(() => {
    time = 1_000_000;
    emulator = new AlphaEmulator({ apiKey: 'key', ...emulatorState(() => time) });
  });

  it('reports status 5, then 1 once generated, with the requested size and a temporary URL that needs no key', async () => {
    const created = await generate({ prompt: 'a fox', aspect_ratio: '9:16', seed: 7 });
    expect(created).toMatchObject({ ErrCode: 0, ErrMsg: 'success', Resp: { video_id: expect.any(Number) } });
    const id = created.Resp.video_id as number;
    expect((await result(id)).Resp).toMatchObject({ id, status: 5, prompt: 'a fox', seed: 7 });
    expect((await result(id)).Resp.url).toBeUndefined();
    expect((await file(`${BASE}/files/${id}.mp4?expires=${time + 1000}&v=1`)).status).toBe(403);
    time += GENERATION_MS;
    const done = (await result(id)).Resp;
    expect(done).toMatchObject({ status: 1, outputWidth: 720, outputHeight: 1280 });
    expect(done.url).toBe(`${BASE}/files/${id}.mp4?expires=${time + URL_VALIDITY_MS}&v=1`);
    expect(await file(done.url)).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    expect(await file(done.url, 'HEAD')).toEqual({ status: 200, video: { file: '/sample.mp4' } });
    time += URL_VALIDITY_MS + 1;
    expect(await file(done.url)).toEqual({ status: 403, text: 'link expired or unknown' });
    expect(emulator.creates).toEqual([{ id, kind: 'text', body: expect.objectContaining({ prompt: 'a fox' }), traceId: undefined }]);
  });

  it('answers the earlier video for a repeated Ai-trace-id, and a new one for another', async () => {
    const first = (await generate({ prompt: 'one' }, 'text', 'trace-1')).Resp.video_id;
    expect((await generate({ prompt: 'changed' }, 'text', 'trace-1')).Resp.video_id).toBe(first);
    expect((await generate({ prompt: 'one' }, 'text', 'trace-2')).Resp.video_id).not.toBe(first);
    expect(emulator.creates).toHaveLength(2);
  });

  it.each([
    ['[simulate:fail]', 8],
    ['[simulate:moderation]', 7],
  ])('ends a video whose prompt holds %s with status %d and hands out no URL', async (marker, status) => {
    const id = (await generate({ prompt: `x ${marker}` })).Resp.video_id;
    time += GENERATION_MS;
    expect((await result(id)).Resp).toMatchObject({ status });
    expect((await result(id)).Resp.url).toBeUndefined();
    expect((await file(`${BASE}/files/${id}.mp4?expires=${time + 1000}&v=1`)).status).toBe(403);
  });

  it('refuses [simulate:reject] (400011), [simulate:busy] (500044) and what the provider checks', async () => {
    expect((await generate({ prompt: 'x [simulate:reject]' })).ErrCode).toBe(400011);
    expect((await generate({ prompt: 'x [simulate:busy]' })).ErrCode).toBe(500044);
    expect((await generate({ prompt: 'p', model: 'v9' })).ErrCode).toBe(400013);
    expect((await generate({ prompt: 'p', model: 'v7', duration: 21 })).ErrCode).toBe(400013);
    expect((await generate({ prompt: ' ' })).ErrCode).toBe(400011);
    expect((await generate({ prompt: 'p'.repeat(2049) })).ErrCode).toBe(400018);
    expect((await generate({ prompt: 'p', model: 'v5', duration: 10 })).ErrCode).toBe(400013);
    expect((await generate({ prompt: 'p', quality: '4k' })).ErrCode).toBe(400013);
    expect((await generate({ prompt: 'p', img_id: 1 }, 'img')).ErrCode).toBe(400032);
    expect(await result(999)).toMatchObject({ ErrCode: 400017 });
    expect(emulator.creates).toHaveLength(0);
    // v7, which an operator adds as a catalog entry, is served up to 20 s.
    expect((await generate({ prompt: 'p', model: 'v7', duration: 20 })).ErrCode).toBe(0);
  });

  it('takes an image file (sniffed) or an image_url, and image-to-video needs an img_id it handed out', async () => {
    const upload = async (form: AlphaEmulatorRequest['upload']) =>
      body(await emulator.handle(request('POST', '/openapi/v2/image/upload', { upload: form }), BASE))!;
    expect((await upload({ file: { data: Buffer.from('not an image') } })).ErrCode).toBe(500031);
    expect((await upload({})).ErrCode).toBe(400011);
    expect((await upload({ imageUrl: 'ftp://x/y.png' })).ErrCode).toBe(400011);
    const fromUrl = (await upload({ imageUrl: 'https://example.com/a.png' })).Resp.img_id;
    const uploaded = await upload({ file: { data: PNG, filename: 'a.png', contentType: 'image/png' } });
    expect(uploaded).toMatchObject({ ErrCode: 0, Resp: { img_id: expect.any(Number), img_url: expect.any(String) } });
    expect(uploaded.Resp.img_id).not.toBe(fromUrl);
    expect(await generate({ prompt: '', img_id: uploaded.Resp.img_id }, 'img')).toMatchObject({ ErrCode: 0 });
    expect(await generate({ prompt: 'p', img_id: await emulator.storeImage() }, 'img')).toMatchObject({ ErrCode: 0 });
    expect(emulator.requests.every((logged) => !('form' in logged))).toBe(true);
  });

  it('checks the API-KEY on every call but the video URL, and 404s other routes', async () => {
    const wrong = await emulator.handle(request('GET', '/openapi/v2/video/result/1', {}, 'wrong'), BASE);
    expect(wrong).toEqual({ status: 401, json: { err_code: 401, err_msg: 'invalid API-KEY', resp: '' } });
    expect((await emulator.handle(request('POST', '/openapi/v2/video/text/generate', {}, ''), BASE)).status).toBe(401);
    expect((await emulator.handle(request('POST', '/openapi/v2/image/upload', {}, ''), BASE)).status).toBe(401);
    expect((await emulator.handle(request('GET', '/openapi/v2/video/text/generate'), BASE)).status).toBe(404);
    expect((await emulator.handle(request('GET', '/nothing'), BASE)).status).toBe(404);
  });
});

describe('AlphaEmulator (scripted, as the tests run it)', () => {
  let emulator: AlphaEmulator;
  const headers = { 'api-key': 'key' };
  const call = async (method: string, path: string, json?: unknown) =>
    (await emulator.handle({ method, path, query: new URLSearchParams(), headers, json }, 'http://127.0.0.1:1')) as {
      status: number;
      json: { ErrCode: number; Resp: Record<string, any> };
    };
  const generate = async () =>
    (await call('POST', '/openapi/v2/video/text/generate', { model: 'v5', prompt: 'p', duration: 5, quality: '540p' })).json.Resp
      .video_id as number;
  const statuses = async (id: number, polls: number) => {
    const seen: number[] = [];
    for (let i = 0; i < polls; i++) seen.push((await call('GET', `/openapi/v2/video/result/${id}`)).json.Resp.status);
    return seen;
  };

  beforeEach(() => {
    emulator = new AlphaEmulator({
      apiKey: 'key',
      ...emulatorState(() => Date.now(), { bytes: Buffer.from('video') }),
      defaultScript: [5, 1],
    });
  });

  it('follows the default script, a queued one per video, and a script set on an existing video', async () => {
    emulator.scriptNext([5, 5, 8]);
    const scripted = await generate();
    const plain = await generate();
    expect(await statuses(scripted, 4)).toEqual([5, 5, 8, 8]);
    expect(await statuses(plain, 3)).toEqual([5, 1, 1]);
    await emulator.setScript(plain, [7]);
    expect(await statuses(plain, 2)).toEqual([7, 7]);
    expect(emulator.creates.map((create) => create.script)).toEqual([[5, 5, 8], [7]]);
  });

  it('serves a URL until expireUrls, then hands out a fresh one', async () => {
    emulator.scriptNext([1]);
    const id = await generate();
    const first = new URL((await call('GET', `/openapi/v2/video/result/${id}`)).json.Resp.url);
    const fetch = (url: URL) => emulator.handle({ method: 'GET', path: url.pathname, query: url.searchParams, headers: {} }, '');
    expect(await fetch(first)).toEqual({ status: 200, video: { bytes: Buffer.from('video') } });
    emulator.expireUrls();
    expect((await fetch(first)).status).toBe(403);
    const second = new URL((await call('GET', `/openapi/v2/video/result/${id}`)).json.Resp.url);
    expect(second.searchParams.get('v')).toBe('2');
    expect((await fetch(second)).status).toBe(200);
  });

  it('renders an injected provider error in either envelope', () => {
    expect(alphaErrorReply({ errCode: 500044 })).toEqual({
      status: 200,
      json: { ErrCode: 500044, ErrMsg: 'simulated error 500044', Resp: {} },
    });
    expect(alphaErrorReply({ errCode: 500090, lowerCase: true, retryAfter: 7, message: 'broke' })).toEqual({
      status: 500,
      headers: { 'retry-after': '7' },
      json: { err_code: 500090, err_msg: 'broke', resp: '' },
    });
  });
});

describe('AlphaEmulator (the video made to order)', () => {
  it('asks the video source for the duration, quality, ratio and audio the task asked', async () => {
    const { seen, state } = recordingEmulatorState();
    const emulator = new AlphaEmulator({ apiKey: 'key', ...state, defaultScript: [1] });
    const call = (method: string, path: string, json?: unknown, query = new URLSearchParams()) =>
      emulator.handle({ method, path, query, headers: { 'api-key': 'key' }, json }, 'http://127.0.0.1:1') as Promise<{
        status: number;
        json: { Resp: Record<string, any> };
      }>;
    const body = { model: 'v6', prompt: 'p', duration: 8, quality: '720p', aspect_ratio: '9:16', generate_audio_switch: true };
    const id = (await call('POST', '/openapi/v2/video/text/generate', body)).json.Resp.video_id as number;
    const url = new URL((await call('GET', `/openapi/v2/video/result/${id}`)).json.Resp.url);
    expect(await call('GET', url.pathname, undefined, url.searchParams)).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 8, resolution: '720p', aspectRatio: '9:16', audio: true }]);
  });
});
