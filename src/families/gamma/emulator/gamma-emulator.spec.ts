import { recordingVideoSource } from '../../shared/emulator.spec-support';
import { signRequest } from '../control-plane/gamma-request-signer';
import { memoryRecords, type EmulatorReply, type EmulatorRequest, type VideoSource } from '../../simulator-shared/emulator-http';
import { GammaEmulator, type GammaTimeline } from './gamma-emulator';
import { H5_LIFETIME_MS, SIMULATED_ASSET_PROCESSING_MS, SIMULATED_DONE_MS, SIMULATED_QUEUED_MS } from './gamma-provider-state';

const DATA = 'http://sim.test/simulator/gamma';
const CONTROL = 'https://gw.example.com/simulator/gamma-control';
const CONTROL_PATH = '/simulator/gamma-control/';
const ACCOUNT = { accessKey: 'AK', secretKey: 'SK', region: 'cn-beijing' };

type Json = Record<string, any>;
const json = (reply: EmulatorReply) => ('json' in reply ? (reply.json as Json) : null);

/** An emulator on `timeline`; `region`, the one its signatures must name (absent: any, as the simulator). */
function setUp(timeline: GammaTimeline, region?: string, video: VideoSource = { file: '/sample.mp4' }) {
  const clock = { time: Date.UTC(2026, 0, 1, 12) };
  const emulator = new GammaEmulator({
    apiKey: 'data-key',
    accessKey: ACCOUNT.accessKey,
    secretKey: ACCOUNT.secretKey,
    region,
    records: memoryRecords(() => clock.time),
    now: () => clock.time,
    video,
    timeline,
  });
  const data = (method: string, path: string, body?: unknown, authorization = 'Bearer data-key') =>
    emulator.handleDataPlane({ method, path, query: new URLSearchParams(), headers: { authorization }, json: body }, DATA);
  const submit = async (prompt: string, extra: object = {}) =>
    data('POST', '/api/v3/contents/generations/tasks', { model: 'gamma-2-0', content: [{ type: 'text', text: prompt }], ...extra });
  const query = async (id: string) => json(await data('GET', `/api/v3/contents/generations/tasks/${id}`))!;
  /** A control call signed by the gateway's signer, as it arrives at the simulator's mount. */
  const control = (action: string, body: object, account: typeof ACCOUNT = ACCOUNT) => {
    const raw = JSON.stringify(body);
    const query = new URLSearchParams({ Action: action, Version: '2024-01-01' });
    const signed = signRequest({
      method: 'POST',
      path: CONTROL_PATH,
      query,
      host: 'sim.test',
      contentType: 'application/json',
      body: raw,
      ...account,
      date: new Date(clock.time),
    });
    const headers = Object.fromEntries(Object.entries(signed.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return emulator.handleControlPlane(
      { method: 'POST', path: '/', query, headers, wirePath: CONTROL_PATH, body: Buffer.from(raw) },
      CONTROL,
    );
  };
  const page = (path: string, token: string): Promise<EmulatorReply> =>
    emulator.handleControlPlane(
      { method: 'GET', path, query: new URLSearchParams({ token }), headers: {}, wirePath: `/simulator/gamma-control${path}` },
      CONTROL,
    );
  return { clock, emulator, data, submit, query, control, page };
}

/** As the embedded simulator runs it: tasks and assets follow the clock, prompt and URL markers, the signed control plane, the H5 page. */
describe('GammaEmulator (clock-driven, as the simulator)', () => {
  let t: ReturnType<typeof setUp>;
  beforeEach(() => {
    t = setUp('clock');
  });

  it('moves a task queued -> running -> succeeded by the clock, with a video link that needs no key', async () => {
    const created = await t.submit('a fox', { resolution: '1080p', ratio: '9:16', duration: 6 });
    const id = json(created)!.id as string;
    expect(id).toMatch(/^cgt-20260101120000-[a-z0-9]{8}$/);
    expect(await t.query(id)).toMatchObject({ id, model: 'gamma-2-0', status: 'queued', error: null, content: null });
    expect((await t.data('GET', `/videos/${id}.mp4`, undefined, '')).status).toBe(404);
    t.clock.time += SIMULATED_QUEUED_MS;
    expect((await t.query(id)).status).toBe('running');
    t.clock.time += SIMULATED_DONE_MS;
    expect(await t.query(id)).toEqual({
      id,
      model: 'gamma-2-0',
      status: 'succeeded',
      error: null,
      created_at: Date.UTC(2026, 0, 1, 12) / 1000,
      updated_at: t.clock.time / 1000,
      content: { video_url: `${DATA}/videos/${id}.mp4` },
      seed: 42,
      resolution: '1080p',
      ratio: '9:16',
      duration: 6,
      framespersecond: 24,
      usage: { completion_tokens: 108900, total_tokens: 108900 },
    });
    expect(await t.data('GET', `/videos/${id}.mp4`, undefined, '')).toEqual({ status: 200, video: { file: '/sample.mp4' } });
  });

  it('fails a `[simulate:fail]` task at its end; refuses a bad key and what the provider refuses', async () => {
    const id = json(await t.submit('boom [simulate:fail]'))!.id as string;
    t.clock.time += SIMULATED_DONE_MS;
    expect(await t.query(id)).toMatchObject({ status: 'failed', error: { code: 'InternalServiceError' }, content: null });

    expect(await t.data('GET', `/api/v3/contents/generations/tasks/${id}`, undefined, 'Bearer wrong')).toMatchObject({
      status: 401,
      json: { error: { code: 'AuthenticationError' } },
    });
    expect(await t.data('GET', '/api/v3/contents/generations/tasks/cgt-unknown')).toMatchObject({
      status: 404,
      json: { error: { code: 'ResourceNotFound' } },
    });
    const refusals: Array<[object, string]> = [
      [{ model: 'gamma-3' }, 'InvalidEndpointOrModel.NotFound'],
      [{ content: [] }, 'InvalidParameter'],
      [{ duration: 3 }, 'InvalidParameter'],
      [{ resolution: '1080p', model: 'gamma-2-0-fast' }, 'InvalidParameter'],
      [{ resolution: '1080p', model: 'gamma-2-0-fast-250101' }, 'InvalidParameter'],
      [{ ratio: '5:4' }, 'InvalidParameter'],
      [
        {
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url: 'asset://asset-x' }, role: 'reference_image' },
          ],
        },
        'InvalidParameter',
      ],
      [
        {
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url: 'https://x/a.png' }, role: 'face' },
          ],
        },
        'InvalidParameter',
      ],
    ];
    for (const [change, code] of refusals)
      expect({ change, reply: await t.submit('x', change) }).toMatchObject({ change, reply: { status: 400, json: { error: { code } } } });
    // A dated release of a model is the model.
    expect((await t.submit('x', { model: 'gamma-2-0-fast-250101', resolution: '720p' })).status).toBe(200);
  });

  it('cancels a queued task (it reads cancelled), refuses a running one, deletes an ended one', async () => {
    const cancel = (id: string) => t.data('DELETE', `/api/v3/contents/generations/tasks/${id}`);
    const queued = json(await t.submit('a'))!.id as string;
    expect(await cancel(queued)).toEqual({ status: 200, json: {} });
    expect((await t.query(queued)).status).toBe('cancelled');
    const running = json(await t.submit('b'))!.id as string;
    t.clock.time += SIMULATED_QUEUED_MS;
    expect(await cancel(running)).toMatchObject({ status: 400, json: { error: { code: 'InvalidParameter' } } });
    t.clock.time += SIMULATED_DONE_MS;
    expect(await cancel(running)).toEqual({ status: 200, json: {} });
    expect(await t.emulator.taskStatus(running)).toBeNull();
    expect(await cancel(queued)).toEqual({ status: 200, json: {} });
    expect(await cancel(queued)).toMatchObject({ status: 404 });
  });

  it('runs the verification flow: a signed session, its single-use H5 page, the confirmed group, an asset that turns active', async () => {
    const created = json(
      await t.control('CreateVisualValidateSession', { ProjectName: 'default', CallbackURL: 'https://gw.example.com/v1/callback?x=1' }),
    )!;
    expect(created.ResponseMetadata).toEqual({
      RequestId: expect.any(String),
      Action: 'CreateVisualValidateSession',
      Version: '2024-01-01',
    });
    const token = created.Result.BytedToken as string;
    expect(token).toMatch(/^bt-[A-Za-z0-9]{24}$/);
    expect(created.Result).toEqual({
      BytedToken: token,
      H5Link: `${CONTROL}/h5?token=${token}`,
      CallbackURL: 'https://gw.example.com/v1/callback?x=1',
    });
    expect(json(await t.control('GetVisualValidateResult', { BytedToken: token }))!.Result).toEqual({});

    const shown = await t.page('/h5', token);
    expect(shown).toMatchObject({ status: 200, headers: { 'Cache-Control': 'no-store' } });
    const html = 'html' in shown ? shown.html : '';
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`href="/simulator/gamma-control/h5/pass?token=${token}"`);
    expect(html).toContain(`href="/simulator/gamma-control/h5/fail?token=${token}"`);
    const passed = await t.page('/h5/pass', token);
    expect(passed.status).toBe(302);
    const location = new URL('headers' in passed ? passed.headers!.Location : '');
    expect(`${location.origin}${location.pathname}`).toBe('https://gw.example.com/v1/callback');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      x: '1',
      bytedToken: token,
      resultCode: '10000',
      algorithmBaseRespCode: '0',
      reqMeasureInfoValue: '0.97',
      verify_type: 'real_time',
    });
    expect((await t.page('/h5', token)).status).toBe(410);
    expect((await t.page('/h5/fail', token)).status).toBe(410);
    const groupId = json(await t.control('GetVisualValidateResult', { BytedToken: token }))!.Result.GroupId as string;
    expect(groupId).toMatch(/^group-20260101-[a-z0-9]{10}$/);

    const asset = json(
      await t.control('CreateAsset', { GroupId: groupId, URL: 'https://cdn.example/me.jpg', AssetType: 'Image', Name: 'me' }),
    )!;
    const assetId = asset.Result.Id as string;
    expect(assetId).toMatch(/^asset-20260101-[a-z0-9]{10}$/);
    expect(json(await t.control('GetAsset', { Id: assetId }))!.Result).toEqual({
      Id: assetId,
      GroupId: groupId,
      Status: 'Processing',
      AssetType: 'Image',
      URL: 'https://cdn.example/me.jpg',
      Name: 'me',
      CreateTime: '2026-01-01T12:00:00.000Z',
      Error: null,
    });
    const faceless = json(
      await t.control('CreateAsset', { GroupId: groupId, URL: 'https://cdn.example/simulate-fail.jpg', AssetType: 'Image' }),
    )!;
    t.clock.time += SIMULATED_ASSET_PROCESSING_MS;
    const listed = json(await t.control('ListAssets', { Filter: { GroupIds: [groupId] }, PageNumber: 1, PageSize: 100 }))!.Result;
    expect(listed.TotalCount).toBe(2);
    expect(listed.Items.map((item: Json) => [item.Id, item.Status, item.Error?.Code ?? null])).toEqual([
      [assetId, 'Active', null],
      [faceless.Result.Id, 'Failed', 'FaceMismatch'],
    ]);
    const active = json(await t.control('ListAssets', { Filter: { Statuses: ['Active'] } }))!.Result;
    expect(active.Items.map((item: Json) => item.Id)).toEqual([assetId]);
    // Only an active asset of its control plane may be referenced.
    const reference = (id: string) => ({ type: 'image_url', image_url: { url: `asset://${id}` }, role: 'reference_image' });
    expect((await t.submit('Image 1 waves', { content: [{ type: 'text', text: 'Image 1 waves' }, reference(assetId)] })).status).toBe(200);
    expect((await t.submit('x', { content: [{ type: 'text', text: 'x' }, reference(faceless.Result.Id)] })).status).toBe(400);
    expect(json(await t.control('DeleteAsset', { Id: assetId }))!.Result).toEqual({});
    expect(await t.control('DeleteAsset', { Id: assetId })).toMatchObject({
      status: 404,
      json: { ResponseMetadata: { Error: { Code: 'NotFound.Asset' } } },
    });
  });

  it('reports a failed check without a group, and the H5 page expires unanswered after about 120 s', async () => {
    const session = async () =>
      json(await t.control('CreateVisualValidateSession', { CallbackURL: 'https://gw.example.com/v1/callback' }))!.Result
        .BytedToken as string;
    const failed = await session();
    const answer = await t.page('/h5/fail', failed);
    expect(new URL('headers' in answer ? answer.headers!.Location : '').searchParams.get('resultCode')).toBe('10001');
    expect(json(await t.control('GetVisualValidateResult', { BytedToken: failed }))!.Result).toEqual({});
    const idle = await session();
    t.clock.time += H5_LIFETIME_MS + 1;
    expect((await t.page('/h5', idle)).status).toBe(410);
    expect((await t.page('/h5', 'bt-never-issued')).status).toBe(410);
  });

  it('refuses a control call that is not signed by its key pair, or not the protocol', async () => {
    const error = (reply: EmulatorReply) => [reply.status, json(reply)!.ResponseMetadata.Error?.Code];
    const body = { CallbackURL: 'https://gw.example.com/v1/callback' };
    expect(error(await t.control('CreateVisualValidateSession', body, { ...ACCOUNT, secretKey: 'wrong' }))).toEqual([
      401,
      'SignatureDoesNotMatch',
    ]);
    // The simulator answers whatever region a channel is set to, each signed in its own name.
    expect((await t.control('CreateVisualValidateSession', body, { ...ACCOUNT, region: 'cn-shanghai' })).status).toBe(200);
    const unsigned: EmulatorRequest = {
      method: 'POST',
      path: '/',
      query: new URLSearchParams({ Action: 'CreateVisualValidateSession', Version: '2024-01-01' }),
      headers: { 'content-type': 'application/json' },
      wirePath: CONTROL_PATH,
      body: Buffer.from(JSON.stringify(body)),
    };
    expect(error(await t.emulator.handleControlPlane(unsigned, CONTROL))).toEqual([401, 'SignatureDoesNotMatch']);
    expect(t.emulator.controlCalls.map((call) => call.signatureError)).toEqual(['signature mismatch', null, 'malformed Authorization']);
    expect(error(await t.control('Unknown', {}))).toEqual([400, 'InvalidActionOrVersion']);
    expect(error(await t.control('CreateVisualValidateSession', { CallbackURL: 'javascript:x' }))).toEqual([
      400,
      'InvalidParameter.CallbackURL',
    ]);
    expect(error(await t.control('GetVisualValidateResult', { BytedToken: 'bt-x' }))).toEqual([400, 'InvalidParameter.BytedToken']);
    expect(error(await t.control('CreateAsset', { GroupId: 'group-x', URL: 'https://a/b.jpg', AssetType: 'Image' }))).toEqual([
      400,
      'InvalidParameter.GroupId',
    ]);
    expect(t.emulator.controlCalls.at(-1)).toMatchObject({
      action: 'CreateAsset',
      version: '2024-01-01',
      body: { GroupId: 'group-x' },
      signatureError: null,
    });
  });
});

/** As tests run it: nothing moves by itself; the test settles sessions, assets and tasks, queues errors, holds submits. */
describe('GammaEmulator (manual, as the tests)', () => {
  let t: ReturnType<typeof setUp>;
  beforeEach(() => {
    t = setUp('manual', 'cn-beijing');
  });

  it('refuses a signature made for another region than its own', async () => {
    const body = { CallbackURL: 'https://gw.example.com/cb' };
    expect(await t.control('CreateVisualValidateSession', body, { ...ACCOUNT, region: 'cn-shanghai' })).toMatchObject({
      status: 401,
      json: { ResponseMetadata: { Error: { Code: 'SignatureDoesNotMatch', Message: 'region cn-shanghai instead of cn-beijing' } } },
    });
    expect((await t.control('CreateVisualValidateSession', body)).status).toBe(200);
  });

  it('keeps tasks queued and assets processing until the test moves them', async () => {
    const id = json(await t.submit('a fox [simulate:fail]'))!.id as string;
    expect(t.emulator.taskIds).toEqual([id]);
    t.clock.time += 60_000;
    expect((await t.query(id)).status).toBe('queued');
    await t.emulator.setTask(id, { status: 'running' });
    expect((await t.query(id)).status).toBe('running');
    await t.emulator.setTask(id, { status: 'succeeded', videoUrl: 'https://cdn.example/v.mp4' });
    expect(await t.query(id)).toMatchObject({ status: 'succeeded', content: { video_url: 'https://cdn.example/v.mp4' } });
    await t.emulator.setTask(id, { status: 'failed', error: { code: 'OutputVideoSensitiveContentDetected', message: 'm' } });
    expect(await t.query(id)).toMatchObject({
      status: 'failed',
      error: { code: 'OutputVideoSensitiveContentDetected', message: 'm' },
      content: null,
    });
    await expect(t.emulator.setTask('cgt-unknown', { status: 'running' })).rejects.toThrow('unknown task');

    const token = json(await t.control('CreateVisualValidateSession', { CallbackURL: 'https://gw.example.com/cb' }))!.Result.BytedToken;
    expect(await t.emulator.passSession(token, 'group-mine')).toBe('group-mine');
    const assetId = json(await t.control('CreateAsset', { GroupId: 'group-mine', URL: 'https://a/b.jpg', AssetType: 'Image' }))!.Result.Id;
    t.clock.time += 60_000;
    expect(json(await t.control('GetAsset', { Id: assetId }))!.Result.Status).toBe('Processing');
    await t.emulator.setAsset(assetId, 'Failed', { Code: 'FaceMismatch', Message: 'no match' });
    expect(json(await t.control('GetAsset', { Id: assetId }))!.Result).toMatchObject({
      Status: 'Failed',
      Error: { Code: 'FaceMismatch', Message: 'no match' },
    });
    expect(await t.emulator.hasAsset(assetId)).toBe(true);
    await t.emulator.forgetAsset(assetId);
    expect(await t.emulator.hasAsset(assetId)).toBe(false);
  });

  it('answers a queued error once, results unwrapped, another H5 link, and holds submits until released', async () => {
    t.emulator.failNext('submit', { status: 429, code: 'RequestLimitExceeded', message: 'slow down' });
    expect(await t.submit('x')).toEqual({ status: 429, json: { error: { code: 'RequestLimitExceeded', message: 'slow down' } } });
    t.emulator.failNext('CreateVisualValidateSession', { status: 500, code: 'InternalError', message: 'boom' });
    const body = { CallbackURL: 'https://gw.example.com/cb' };
    expect(await t.control('CreateVisualValidateSession', body)).toMatchObject({
      status: 500,
      json: { ResponseMetadata: { Error: { Code: 'InternalError' } } },
    });
    t.emulator.unwrapped.add('CreateVisualValidateSession');
    t.emulator.h5LinkFor = () => 'file:///etc/passwd';
    const unwrapped = json(await t.control('CreateVisualValidateSession', body))!;
    expect(unwrapped).toMatchObject({ BytedToken: expect.stringMatching(/^bt-/), H5Link: 'file:///etc/passwd' });
    expect(unwrapped.Result).toBeUndefined();

    const release = t.emulator.holdSubmits();
    let answered = false;
    const held = t.submit('y').then((reply) => ((answered = true), reply));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    release();
    expect((await held).status).toBe(200);
  });
});

describe('GammaEmulator (the video made to order)', () => {
  it('asks the video source for the duration, resolution and ratio the task asked', async () => {
    const { seen, source } = recordingVideoSource();
    const t = setUp('manual', undefined, source);
    const id = json(await t.submit('a fox', { resolution: '480p', ratio: '9:16', duration: 12, seed: 7 }))!.id as string;
    await t.emulator.setTask(id, { status: 'succeeded' });
    const link = new URL((await t.query(id)).content.video_url as string);
    const video = await t.data('GET', link.pathname.slice('/simulator/gamma'.length), undefined, '');
    expect(video).toEqual({ status: 200, video: { bytes: Buffer.from('x') } });
    expect(seen).toEqual([{ seconds: 12, resolution: '480p', aspectRatio: '9:16' }]);
  });
});
