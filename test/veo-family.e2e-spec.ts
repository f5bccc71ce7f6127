import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { omniInteractionBody } from '../src/families/veo/emulator/omni-emulated-interactions';
import { SAMPLE_IMAGE_PATH } from '../src/families/simulator-shared/sample-video';
import { TaskReadRepository } from '../src/tasks/repositories/task-read.repository';
import { binaryBody } from './support/binary-body';
import { reactivateModels } from './support/catalog-models';
import { googleError, startVeoEmulator, VeoEmulatorServer } from './support/veo-emulator';
import { describeFamily, describeFamilyMoney, FamilyContext, FamilyMoneySetup } from './support/family-suite';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
/** Seeded defaults: 100 quota units per credit of 0.01 USD (Veo 3.1 Fast USD 0.15/s, Veo 3 USD 0.40/s). */
const FAST_PER_SECOND = 1_500;
const VEO3_PER_SECOND = 4_000;
const IMAGE = readFileSync(SAMPLE_IMAGE_PATH);
const MODELS = ['veo-3.1-generate-preview', 'veo-3.1-fast-generate-preview', 'veo-3.0-generate-001', 'veo-3.0-fast-generate-001'];
/** Gemini Omni (the Interactions API): Google's USD 0.10 a second, 10 credits. */
const OMNI = ['gemini-omni-flash', 'gemini-omni-1.2-flash'];
const OMNI_PER_SECOND = 1_000;
/** A Veo suite's own calls: the last submit the fake took, a task followed to its end (flat view), its video. */
const veoCalls = (t: FamilyContext<VeoEmulatorServer>) => {
  const lastSubmit = () => t.fake.submits().at(-1)!;
  const settle = async (id: string) => {
    let task = await t.flatTask(id);
    for (let round = 0; round < 6 && !['completed', 'failed'].includes(task.status); round++) {
      t.gw.clock.advance(10_000);
      await t.gw.sync();
      task = await t.flatTask(id);
    }
    return task;
  };
  const content = async (id: string) =>
    (
      await t
        .auth(t.gw.http.get(`/v1/videos/${id}/content`))
        .buffer(true)
        .parse(binaryBody)
        .expect(200)
    ).body as Buffer;
  return { lastSubmit, settle, content };
};

const FIRST_FRAME = `data:image/png;base64,${IMAGE.toString('base64')}`;

/** The fake and its channel, on every database. */
const SETUP: FamilyMoneySetup<VeoEmulatorServer> = {
  platform: 'veo',
  startFake: startVeoEmulator,
  channel: { name: 'gemini', models: [...MODELS, ...OMNI], priority: 0 },
  quota: QUOTA,
  pace: { rounds: 6, stepMs: 10_000 },
};

/** Veo through the Gemini API (platform `veo`) on both surfaces, against a fake that checks x-goog-api-key on every call. */
describeFamily<VeoEmulatorServer>({
  title: 'veo family (Gemini API)',
  ...SETUP,
  submitsOf: (fake) => fake.submits().length,
  // Google's four Veo models, the simulator's, Gemini Omni's, and no settings of its own.
  listing: {
    label: { en: 'Veo (Gemini API)', 'zh-CN': 'Veo（Gemini API）' },
    models: [...MODELS, 'veo-simulator', ...OMNI],
    settings: [{ name: 'poll_interval_ms' }, { name: 'max_concurrency' }, { name: 'usd_per_unit' }],
  },
  refusals: [
    { form: 'flat', param: 'seconds', body: { model: 'veo-3.1-generate-preview', prompt: 'p', seconds: '5' } },
    { form: 'unified', param: 'duration', body: { model: 'veo-3.1-generate-preview', prompt: 'p', duration: 10 } },
    { form: 'unified', param: 'resolution', body: { model: 'veo-3.0-generate-001', prompt: 'p', resolution: '4k' } },
    { form: 'flat', param: 'seconds', body: { model: 'veo-3.1-generate-preview', prompt: 'p', seconds: '4', resolution: '1080p' } },
    { form: 'flat', param: 'size', body: { model: 'veo-3.1-generate-preview', prompt: 'p', size: '1024x1024' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'veo-3.1-generate-preview', prompt: 'p', aspect_ratio: '1:1' } },
    {
      form: 'unified',
      param: 'last_frame',
      body: { model: 'veo-3.0-generate-001', prompt: 'p', input_reference: FIRST_FRAME, last_frame: 'https://example.com/l.png' },
    },
    {
      form: 'flat',
      param: 'last_frame',
      body: { model: 'veo-3.1-generate-preview', prompt: 'p', last_frame: 'https://example.com/l.png' },
    },
    { form: 'flat', param: 'seed', body: { model: 'veo-3.1-generate-preview', prompt: 'p', seed: 7 } },
    {
      form: 'unified',
      param: 'metadata.durationSeconds',
      body: { model: 'veo-3.1-generate-preview', prompt: 'p', metadata: { durationSeconds: 4 } },
    },
    { form: 'unified', param: 'prompt', body: { model: 'veo-3.1-generate-preview' } },
    { form: 'flat', param: 'seconds', body: { model: 'gemini-omni-flash', prompt: 'p', seconds: '11' } },
    { form: 'unified', param: 'resolution', body: { model: 'gemini-omni-flash', prompt: 'p', resolution: '1080p' } },
    {
      form: 'unified',
      param: 'last_frame',
      body: { model: 'gemini-omni-flash', prompt: 'p', input_reference: FIRST_FRAME, last_frame: FIRST_FRAME },
    },
    { form: 'flat', param: 'negative_prompt', body: { model: 'gemini-omni-1.2-flash', prompt: 'p', negative_prompt: 'blur' } },
    { form: 'unified', param: 'metadata', body: { model: 'gemini-omni-1.2-flash', prompt: 'p', metadata: { task: 'edit' } } },
    {
      form: 'flat',
      param: 'input_reference',
      body: { model: 'veo-3.1-generate-preview', prompt: 'p', input_reference: 'data:image/png;base64,AAAA' },
    },
  ],
  failures: [
    {
      name: 'a failed operation, named by its rpc code only',
      arrange: (fake) => fake.scriptNext(['running', { error: 13 }]),
      body: { model: 'veo-3.1-fast-generate-preview', prompt: 'doomed' },
      reason: 'generation failed: INTERNAL: provider internal error',
      hidden: /10\.1\.2\.3/,
    },
    {
      name: 'the RAI filter (done, no sample, raiMediaFilteredCount)',
      arrange: (fake) => fake.scriptNext(['running', 'moderation']),
      body: { model: 'veo-3.1-fast-generate-preview', prompt: 'something filtered', duration: 4 },
      surface: 'unified',
      reason: 'content moderation failed: raiMediaFiltered',
      code: 'content_moderation_failed',
      hidden: /10\.9\.9\.9/,
    },
    {
      name: 'Gemini Omni: a safety block (a failed interaction)',
      arrange: (fake) => fake.scriptNext(['running', 'moderation']),
      body: { model: 'gemini-omni-flash', prompt: 'something blocked', seconds: '4' },
      reason: 'content moderation failed: safety',
      code: 'content_moderation_failed',
      hidden: /10\.9\.9\.9/,
    },
    {
      name: 'Gemini Omni: a failed interaction, named by its rpc code only',
      arrange: (fake) => fake.scriptNext(['running', { error: 13 }]),
      body: { model: 'gemini-omni-1.2-flash', prompt: 'doomed' },
      surface: 'unified',
      reason: 'generation failed: INTERNAL: provider internal error',
      hidden: /10\.1\.2\.3/,
    },
  ],
  submitFaults: [
    {
      name: 'Gemini Omni: a 429 on the Interactions API',
      arrange: (fake) => fake.failNextSubmit({ status: 429, body: googleError(429, 'RESOURCE_EXHAUSTED', 'quota') }),
      body: { model: 'gemini-omni-flash', prompt: 'p' },
      status: 429,
      retryAfter: '10',
    },
    {
      name: 'a 400 for the input, naming only the status',
      arrange: (fake) =>
        fake.failNextSubmit({ status: 400, body: googleError(400, 'INVALID_ARGUMENT', 'bad combo, see http://10.0.0.9/x key AIzaSyXXXX') }),
      body: { model: 'veo-3.1-fast-generate-preview', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: INVALID_ARGUMENT: invalid request',
      hidden: /10\.0\.0\.9|AIza|veo-test-key/,
    },
    {
      name: 'a 429, with the RetryInfo delay',
      arrange: (fake) =>
        fake.failNextSubmit({
          status: 429,
          body: googleError(429, 'RESOURCE_EXHAUSTED', 'quota', [
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' },
          ]),
        }),
      body: { model: 'veo-3.1-fast-generate-preview', prompt: 'p' },
      status: 429,
      retryAfter: '17',
    },
    {
      name: 'billing not enabled on the only channel (FAILED_PRECONDITION), a 503',
      arrange: (fake) =>
        fake.failNextSubmit({ status: 400, body: googleError(400, 'FAILED_PRECONDITION', 'Billing is not enabled for project 1234.') }),
      body: { model: 'veo-3.1-fast-generate-preview', prompt: 'p' },
      status: 503,
      hidden: /Billing|1234/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, flatTask, balance } = t;
    let images: LoopbackServer;
    beforeAll(async () => {
      images = await startLoopbackServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': IMAGE.length });
        res.end(IMAGE);
      });
      // Google retired these ids on the Gemini API; this operator's project still serves them.
      await reactivateModels(t.gw, MODELS);
    });
    afterAll(async () => {
      await images?.close();
    });
    const { lastSubmit, settle, content } = veoCalls(t);
    it('flat text-to-video: predictLongRunning with the key, charged at the default price, completed, video through /content (download with the key)', async () => {
      const before = await balance();
      const res = await flat({
        model: 'veo-3.1-fast-generate-preview',
        prompt: 'a lighthouse at dusk',
        seconds: '8',
        size: '1280x720',
      }).expect(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'veo-3.1-fast-generate-preview', status: 'queued' });
      const sent = lastSubmit();
      expect(sent.path).toBe('/v1beta/models/veo-3.1-fast-generate-preview:predictLongRunning');
      expect(sent.headers['x-goog-api-key']).toBe(t.fake.apiKey);
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.json).toEqual({
        instances: [{ prompt: 'a lighthouse at dusk' }],
        parameters: { aspectRatio: '16:9', durationSeconds: 8, resolution: '720p', sampleCount: 1 },
      });
      expect(await balance()).toEqual({
        quota: before.quota - 8 * FAST_PER_SECOND,
        used_quota: before.used_quota + 8 * FAST_PER_SECOND,
      });
      expect(await settle(res.body.id)).toMatchObject({ status: 'completed', progress: 100 });
      // The size it was sent, though Veo does not report one.
      expect((await flatTask(res.body.id)).size).toBe('1280x720');
      expect(Buffer.compare(await content(res.body.id), t.fake.videoBytes)).toBe(0);
      expect(t.fake.downloads().at(-1)!.headers['x-goog-api-key']).toBe(t.fake.apiKey);
      // The redirect leads to another origin (signed storage): the key does not follow it.
      const storage = t.fake.storageRequests().at(-1)!;
      expect(storage.path).toMatch(/^\/storage\/op\d+$/);
      expect(storage.headers['x-goog-api-key']).toBeUndefined();
    });

    it('flat image-to-video (multipart file part): the image goes inline as base64, completed', async () => {
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'veo-3.0-fast-generate-001')
        .field('prompt', 'the scene comes alive')
        .field('seconds', '6')
        .field('size', '720x1280')
        .attach('input_reference', IMAGE, { filename: 'first.png', contentType: 'image/png' })
        .expect(200);
      expect(lastSubmit().json).toEqual({
        instances: [{ prompt: 'the scene comes alive', image: { bytesBase64Encoded: IMAGE.toString('base64'), mimeType: 'image/png' } }],
        parameters: { aspectRatio: '9:16', durationSeconds: 6, resolution: '720p', sampleCount: 1 },
      });
      expect(await settle(res.body.id)).toMatchObject({ status: 'completed' });
      expect(Buffer.compare(await content(res.body.id), t.fake.videoBytes)).toBe(0);
    });

    it('unified text-to-video: same field names, metadata among parameters, SUCCESS with a signed link that serves the bytes', async () => {
      const before = await balance();
      const res = await unified({
        model: 'veo-3.0-generate-001',
        prompt: 'rain on a tin roof',
        duration: 6,
        aspect_ratio: '9:16',
        resolution: '720p',
        negative_prompt: 'cartoon',
        metadata: { personGeneration: 'allow_all' },
      }).expect(200);
      const taskId = res.body.id ?? res.body.task_id ?? res.body.data?.task_id;
      expect(lastSubmit().json).toEqual({
        instances: [{ prompt: 'rain on a tin roof' }],
        parameters: {
          personGeneration: 'allow_all',
          aspectRatio: '9:16',
          durationSeconds: 6,
          resolution: '720p',
          sampleCount: 1,
          negativePrompt: 'cartoon',
        },
      });
      expect(await balance()).toEqual({
        quota: before.quota - 6 * VEO3_PER_SECOND,
        used_quota: before.used_quota + 6 * VEO3_PER_SECOND,
      });
      await settle(taskId);
      const done = (await auth(t.gw.http.get(`/v1/video/generations/${taskId}`)).expect(200)).body.data;
      expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%' });
      expect(done.result_url).toMatch(new RegExp(`^${t.gw.url}/v1/videos/${taskId}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      expect(JSON.stringify(done)).not.toContain(t.fake.url);
      const signed = await t.gw.http.get(done.result_url.slice(t.gw.url.length)).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(signed.body as Buffer, t.fake.videoBytes)).toBe(0);
    });

    it('unified image-to-video on Veo 3.1: first frame by URL, last frame as a data URI, both inline', async () => {
      const res = await unified({
        model: 'veo-3.1-generate-preview',
        prompt: 'from dusk to night',
        duration: 8,
        resolution: '1080p',
        input_reference: `${images.url}/first.png`,
        last_frame: `data:image/png;base64,${IMAGE.toString('base64')}`,
      }).expect(200);
      const taskId = res.body.id ?? res.body.task_id ?? res.body.data?.task_id;
      const inline = { bytesBase64Encoded: IMAGE.toString('base64'), mimeType: 'image/png' };
      expect(lastSubmit().json).toEqual({
        instances: [{ prompt: 'from dusk to night', image: inline, lastFrame: inline }],
        parameters: { aspectRatio: '16:9', durationSeconds: 8, resolution: '1080p', sampleCount: 1 },
      });
      expect(await settle(taskId)).toMatchObject({ status: 'completed' });
      expect(Buffer.compare(await content(taskId), t.fake.videoBytes)).toBe(0);
    });

    it('Gemini Omni, flat text-to-video: an interaction in the background with the key, charged at the catalog price, completed, through /content', async () => {
      const before = await balance();
      const res = await flat({ model: 'gemini-omni-flash', prompt: 'a marble run', seconds: '6', size: '720x1280' }).expect(200);
      expect(res.body).toMatchObject({ model: 'gemini-omni-flash', status: 'queued' });
      const sent = lastSubmit();
      expect(sent.path).toBe('/v1beta/interactions');
      expect(sent.headers['x-goog-api-key']).toBe(t.fake.apiKey);
      expect(sent.json).toEqual({
        model: 'gemini-omni-1.1-flash',
        input: 'a marble run',
        response_format: { type: 'video', aspect_ratio: '9:16', resolution: '720p', duration: '6s', delivery: 'uri' },
        background: true,
        store: true,
      });
      expect(await balance()).toEqual({
        quota: before.quota - 6 * OMNI_PER_SECOND,
        used_quota: before.used_quota + 6 * OMNI_PER_SECOND,
      });
      expect(await settle(res.body.id)).toMatchObject({ status: 'completed', progress: 100 });
      expect(Buffer.compare(await content(res.body.id), t.fake.videoBytes)).toBe(0);
      expect(t.fake.downloads().at(-1)!.headers['x-goog-api-key']).toBe(t.fake.apiKey);
      // Google's output tokens (5,792 a second) are the provider's usage of the task: the operator's, never the customer's.
      const detail = (await t.gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
      expect(detail.provider_usage).toMatchObject({ unit: 'tokens', amount: 6 * 5_792 });
      expect(JSON.stringify(await flatTask(res.body.id))).not.toMatch(/tokens|34752/);
    });

    it('Gemini Omni 1.2, unified first and last frames: content blocks, image_to_video, 1080p for 12 s', async () => {
      const res = await unified({
        model: 'gemini-omni-1.2-flash',
        prompt: 'from dusk to night',
        duration: 12,
        resolution: '1080p',
        input_reference: `${images.url}/first.png`,
        last_frame: FIRST_FRAME,
      }).expect(200);
      const taskId = res.body.id ?? res.body.task_id ?? res.body.data?.task_id;
      const image = { type: 'image', data: IMAGE.toString('base64'), mime_type: 'image/png' };
      expect(lastSubmit().json).toEqual({
        model: 'gemini-omni-1.2-flash',
        input: [{ type: 'text', text: 'from dusk to night' }, image, image],
        response_format: { type: 'video', aspect_ratio: '16:9', resolution: '1080p', duration: '12s', delivery: 'uri' },
        generation_config: { video_config: { task: 'image_to_video' } },
        background: true,
        store: true,
      });
      expect(await settle(taskId)).toMatchObject({ status: 'completed' });
    });

    it('cancels a Gemini Omni interaction in progress (refunded once); a Veo operation is a 409 cancel_not_supported', async () => {
      const before = await balance();
      t.fake.scriptNext(['running']);
      const running = await flat({ model: 'gemini-omni-flash', prompt: 'a kite', seconds: '4' }).expect(200);
      t.gw.clock.advance(10_000);
      await t.gw.sync();
      const cancelled = await auth(t.gw.http.post(`/v1/video/generations/${running.body.id}/cancel`)).expect(200);
      expect(cancelled.body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'cancelled by the client' });
      const sent = t.fake.cancels().at(-1)!;
      expect(sent.path).toMatch(/^\/v1beta\/interactions\/v1_op\d+\/cancel$/);
      expect(sent.headers['x-goog-api-key']).toBe(t.fake.apiKey);
      expect(await balance()).toEqual(before);
      expect(await t.ledgerOf(running.body.id)).toEqual(['consume', 'refund']);

      t.fake.scriptNext(['running']);
      const veo = await flat({ model: 'veo-3.1-fast-generate-preview', prompt: 'a kite', seconds: '4' }).expect(200);
      t.gw.clock.advance(10_000);
      await t.gw.sync();
      const cancels = t.fake.cancels().length;
      const refused = await auth(t.gw.http.post(`/v1/videos/${veo.body.id}/cancel`)).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'cancel_not_supported' });
      expect(t.fake.cancels()).toHaveLength(cancels);
    });

    /** The reads of one interaction (GET /v1beta/interactions/{id}) the fake took. */
    const readsOf = (upstreamId: string) =>
      t.fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1beta/interactions/${upstreamId}`).length;
    const detailOf = async (id: string) => (await t.gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;

    it('Gemini Omni answered inline (base64 data, no Files URI): completed, charged once, /content plays the exact bytes from the store', async () => {
      const before = await balance();
      const downloads = t.fake.downloads().length;
      const res = await flat({ model: 'gemini-omni-flash', prompt: 'a marble run [simulate:inline]', seconds: '4' }).expect(200);
      const charged = { quota: before.quota - 4 * OMNI_PER_SECOND, used_quota: before.used_quota + 4 * OMNI_PER_SECOND };
      expect(await balance()).toEqual(charged);
      expect(await settle(res.body.id)).toMatchObject({ status: 'completed', progress: 100 });
      const detail = await detailOf(res.body.id);
      const reads = readsOf(detail.upstream_task_id);
      expect(Buffer.compare(await content(res.body.id), t.fake.videoBytes)).toBe(0);
      // Played from the gateway's copy: neither the interaction nor a file is asked again.
      expect(readsOf(detail.upstream_task_id)).toBe(reads);
      expect(t.fake.downloads()).toHaveLength(downloads);
      expect(await balance()).toEqual(charged);
      expect(await t.ledgerOf(res.body.id)).toEqual(['consume']);
      expect(detail).toMatchObject({ archive_status: 'archived', provider_usage: { unit: 'tokens', amount: 4 * 5_792 } });
      // The task row keeps a marker, never the bytes: no base64 of the video in anything it kept.
      const row = (await t.gw.app.get(TaskReadRepository).findByTaskId(res.body.id))!;
      expect(row).toMatchObject({ resultUrl: 'inline:', upstreamResponse: { status: 'completed', videos: 1 } });
      expect(JSON.stringify(row)).not.toContain(t.fake.videoBytes.subarray(1_000, 1_300).toString('base64'));
    });

    it('Gemini Omni: a 3 MiB video inline (over the 1 MiB cap of other answers) is kept byte for byte; the flat task shows no upstream trace', async () => {
      const video = Buffer.concat([t.fake.videoBytes.subarray(0, 16), randomBytes(3 * 1024 ** 2)]);
      const completed = omniInteractionBody('v1_big', 'gemini-omni-1.2-flash', 'completed', {
        videoData: video.toString('base64'),
        seconds: 4,
      });
      t.fake.scriptNext(['running', { body: completed }]);
      const res = await unified({ model: 'gemini-omni-1.2-flash', prompt: 'a big one', duration: 4 }).expect(200);
      const taskId = res.body.id ?? res.body.task_id ?? res.body.data?.task_id;
      expect(await settle(taskId)).toMatchObject({ status: 'completed' });
      expect(Buffer.compare(await content(taskId), video)).toBe(0);
      expect(JSON.stringify(await flatTask(taskId))).not.toMatch(/inline:|v1_/);
    });

    it('Gemini Omni: an inline video the interaction no longer carries when it is to be kept fails the task undelivered, refunded once', async () => {
      const before = await balance();
      const inline = omniInteractionBody('v1_lost', 'gemini-omni-flash', 'completed', { videoData: t.fake.videoBytes.toString('base64') });
      t.fake.scriptNext(['running', { body: inline }, { body: { id: 'v1_lost', status: 'completed', steps: [] } }]);
      const res = await flat({ model: 'gemini-omni-flash', prompt: 'vanishes', seconds: '4' }).expect(200);
      let task = await flatTask(res.body.id);
      for (let round = 0; round < 12 && task.status !== 'failed'; round++) {
        t.gw.clock.advance(60_000);
        await t.gw.sync();
        task = await flatTask(res.body.id);
      }
      expect(task).toMatchObject({
        status: 'failed',
        error: { message: "generation failed: the provider's link to the video served no video" },
      });
      expect(await balance()).toEqual(before);
      expect(await t.ledgerOf(res.body.id)).toEqual(['consume', 'refund']);
    });
  },
  lastCases: (t) => {
    it("a wrong key is refused by the emulator on the Interactions API as Google does, and named by the channel's Test", async () => {
      const direct = await fetch(`${t.fake.url}/v1beta/interactions`, {
        method: 'POST',
        headers: { 'x-goog-api-key': 'AIza-wrong', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gemini-omni-1.1-flash', input: 'p', response_format: { type: 'video' } }),
      });
      expect(direct.status).toBe(400);
      expect((await direct.json()).error).toMatchObject({ details: [{ reason: 'API_KEY_INVALID' }] });
      const wrong = await t.gw.createChannel({
        name: 'gemini-wrong',
        platform: 'veo',
        base_url: t.fake.url,
        api_key: 'AIza-wrong',
        models: OMNI,
        priority: -1,
      });
      const test = (await t.gw.admin.post(`/api/admin/channels/${wrong}/test`).expect(200)).body;
      expect(test).toMatchObject({ ok: false });
      expect(test.error).toMatch(/api_key|API key/);
      expect(JSON.stringify(test)).not.toContain('AIza-wrong');
      await t.gw.admin.patch(`/api/admin/channels/${wrong}`, { status: 'disabled' }).expect(200);
    });

    const { flat, balance } = t;
    const { lastSubmit, settle } = veoCalls(t);
    it('a channel whose key Google refuses (API_KEY_INVALID) falls over to the next channel; charged once', async () => {
      const refusing = await startVeoEmulator({ apiKey: 'the-right-key-elsewhere' });
      try {
        await t.gw.createChannel({
          name: 'gemini-bad-key',
          platform: 'veo',
          base_url: refusing.url,
          api_key: 'AIza-revoked-key',
          models: MODELS,
          priority: 10,
        });
        const before = await balance();
        const res = await flat({ model: 'veo-3.1-fast-generate-preview', prompt: 'falls over', seconds: '4' }).expect(200);
        expect(refusing.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
        expect(lastSubmit().json).toMatchObject({ instances: [{ prompt: 'falls over' }] });
        expect(await balance()).toEqual({
          quota: before.quota - 4 * FAST_PER_SECOND,
          used_quota: before.used_quota + 4 * FAST_PER_SECOND,
        });
        expect(await settle(res.body.id)).toMatchObject({ status: 'completed' });
      } finally {
        await refusing.close();
      }
    });
  },
});

/** The embedded simulator speaks the same protocol (key on every call, the file too) and is seeded with a veo channel. */
/** Without a store (VIDEO_STORE=none) the video of an inline answer is relayed from the interaction, read again. */
describeOnSqlite('veo family: Gemini Omni inline without a video store', (kind) => {
  let gw: TestGateway;
  let fake: VeoEmulatorServer;
  beforeAll(async () => {
    fake = await startVeoEmulator();
    gw = await startGateway(kind, { VIDEO_STORE: 'none' });
    await gw.createChannel({ name: 'gemini', platform: 'veo', base_url: fake.url, api_key: fake.apiKey, models: OMNI });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('completes at the price asked and /content relays the exact bytes, each time from a fresh read of the interaction', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const as = (test: import('supertest').Test) => test.set('Authorization', `Bearer ${key}`);
    const res = await as(gw.http.post('/v1/videos')).send({ model: 'gemini-omni-flash', prompt: 'a kite [simulate:inline]', seconds: '4' });
    expect(res.status).toBe(200);
    let task = res.body;
    for (let round = 0; round < 5 && task.status !== 'completed'; round++) {
      gw.clock.advance(10_000);
      await gw.sync();
      task = (await as(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body;
    }
    expect(task.status).toBe('completed');
    const reads = () => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1beta/interactions/')).length;
    for (const range of [undefined, 'bytes=0-99']) {
      const before = reads();
      const get = as(gw.http.get(`/v1/videos/${res.body.id}/content`));
      const content = await (range ? get.set('Range', range) : get).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(content.body as Buffer, fake.videoBytes)).toBe(0);
      expect(content.headers['content-type']).toBe('video/mp4');
      expect(reads()).toBe(before + 1);
    }
    expect(fake.downloads()).toHaveLength(0);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 4 * OMNI_PER_SECOND, used_quota: 4 * OMNI_PER_SECOND });
  });
});

describeOnSqlite('veo family: the embedded simulator', (kind) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('serves its own model (veo-simulator, Veo 3.1 Fast) and Gemini Omni to the end with the sample MP4; moderation is refunded; busy is a 429', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const as = (test: import('supertest').Test) => test.set('Authorization', `Bearer ${key}`);
    const created = await as(gw.http.post('/v1/videos')).send({ model: 'veo-simulator', prompt: 'a kite', seconds: '4' }).expect(200);
    const filtered = await as(gw.http.post('/v1/videos'))
      .send({ model: 'veo-simulator', prompt: 'x [simulate:moderation]', seconds: '4' })
      .expect(200);
    await as(gw.http.post('/v1/videos')).send({ model: 'veo-simulator', prompt: 'x [simulate:busy]', seconds: '4' }).expect(429);
    // Gemini Omni, on the simulator's Interactions API.
    const omni = await as(gw.http.post('/v1/videos')).send({ model: 'gemini-omni-flash', prompt: 'a kite', seconds: '4' }).expect(200);
    let video = created.body;
    for (let round = 0; round < 5 && video.status !== 'completed'; round++) {
      gw.clock.advance(10_000);
      await gw.sync();
      video = (await as(gw.http.get(`/v1/videos/${created.body.id}`)).expect(200)).body;
    }
    expect(video.status).toBe('completed');
    expect((await as(gw.http.get(`/v1/videos/${omni.body.id}`)).expect(200)).body.status).toBe('completed');
    const content = await as(gw.http.get(`/v1/videos/${created.body.id}/content`))
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    // The simulator's video, made to what was asked (so settled at what was charged).
    expect((content.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect((await as(gw.http.get(`/v1/videos/${filtered.body.id}`)).expect(200)).body).toMatchObject({
      status: 'failed',
      error: { code: 'content_moderation_failed' },
    });
    const spent = 4 * FAST_PER_SECOND + 4 * OMNI_PER_SECOND;
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - spent, used_quota: spent });
  });
});

/**
 * What touches money on the other databases (SQLite runs the whole suite above): a Gemini Omni 1.2 task charged at
 * the list price and delivered (its video answered inline: the bytes kept in the store, never in the task row),
 * and one Google fails refunded exactly once.
 */
describeFamilyMoney('veo family', SETUP, (t) => {
  it('charges Gemini Omni 1.2 per second, delivers its inline video with its tokens kept; a failed interaction is refunded once', async () => {
    const before = await t.balance();
    const done = await t.unified({ model: 'gemini-omni-1.2-flash', prompt: 'a kite [simulate:inline]', duration: 6 }).expect(200);
    const charged = { quota: before.quota - 6 * OMNI_PER_SECOND, used_quota: before.used_quota + 6 * OMNI_PER_SECOND };
    expect(await t.balance()).toEqual(charged);
    await t.expectVideo(done.body.id);
    const detail = (await t.gw.admin.get(`/api/admin/tasks/${done.body.id}`).expect(200)).body;
    expect(detail).toMatchObject({ archive_status: 'archived', provider_usage: { unit: 'tokens', amount: 6 * 5_792 } });
    const row = (await t.gw.app.get(TaskReadRepository).findByTaskId(done.body.id))!;
    expect(row.resultUrl).toBe('inline:');
    expect(JSON.stringify(row)).not.toContain(t.fake.videoBytes.subarray(1_000, 1_300).toString('base64'));
    expect(t.fake.downloads()).toHaveLength(0);
    expect(await t.balance()).toEqual(charged);
    expect(await t.ledgerOf(done.body.id)).toEqual(['consume']);

    t.fake.scriptNext(['running', { error: 13 }]);
    const failed = await t.flat({ model: 'gemini-omni-1.2-flash', prompt: 'doomed', seconds: '6' }).expect(200);
    expect(await t.balance()).toEqual({
      quota: charged.quota - 6 * OMNI_PER_SECOND,
      used_quota: charged.used_quota + 6 * OMNI_PER_SECOND,
    });
    expect(await t.finish(failed.body.id)).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'generation failed: INTERNAL: provider internal error',
    });
    expect(await t.balance()).toEqual(charged);
    expect(await t.ledgerOf(failed.body.id)).toEqual(['consume', 'refund']);
  });
});
