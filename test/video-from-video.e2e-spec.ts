import { startGateway, TestGateway } from './support/gateway';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { startRunwayEmulator, RunwayEmulatorServer } from './support/runway-emulator';
import { SeedanceEmulatorServer, startSeedanceEmulator } from './support/seedance-emulator';
import { DatabaseKind, describeEachDatabase, executeOnDatabase } from './support/test-databases';
import { startWanEmulator, WanEmulatorServer } from './support/wan-emulator';
import { startXaiEmulator, XaiEmulatorServer } from './support/xai-emulator';

/** Seeded list prices in quota per second: xAI grok-imagine-video at 480p, Runway aleph2 (28 credits), kling-v3-omni at 720p silent. */
const XAI_480P = 500;
const ALEPH2 = 2800;
const OMNI_720P = 840;
const QUOTA = 10_000_000;

/**
 * Video from video (product contract): a remix (`POST /v1/videos/{id}/remix`) or a submit naming
 * `metadata.source_task_id` makes a new task from a completed one of the caller's, its stored video
 * sent as the gateway's signed link: xAI edits and extensions, Runway's video-to-video, Kling 3 Omni's
 * edits and extends (omni-video's `video_list`). Charged once
 * by the new seconds (all databases); the refusals, before any charge, on SQLite.
 */
describeEachDatabase('video from video', (kind: DatabaseKind) => {
  let gw: TestGateway;
  let xai: XaiEmulatorServer;
  let runway: RunwayEmulatorServer;
  let kling: KlingEmulatorServer;
  let customer: { userId: number; key: string };
  const auth = <T extends { set(name: string, value: string): T }>(req: T, key = customer.key): T =>
    req.set('Authorization', `Bearer ${key}`);
  const balance = () => gw.balance(customer.userId);
  const ledgerOf = async (taskId: string) =>
    ((await gw.admin.get(`/api/admin/logs?task_id=${taskId}`).expect(200)).body.data as Array<{ type: string; quota: number }>).map(
      ({ type, quota }) => ({ type, quota }),
    );
  /** Sync rounds that take a task to its end (Kling is polled every 10 s: a longer step). */
  const settle = async (stepMs = 6_000) => {
    for (let round = 0; round < 5; round++) {
      gw.clock.advance(stepMs);
      await gw.sync();
    }
  };
  /** A completed xAI text-to-video of `seconds` at 480p, its video stored: the source of a remix. */
  const source = async (seconds = '6', key = customer.key) => {
    const res = await auth(gw.http.post('/v1/videos'), key)
      .send({ model: 'grok-imagine-video', prompt: 'a lighthouse at dusk', seconds })
      .expect(200);
    await settle();
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`), key).expect(200)).body.status).toBe('completed');
    return res.body.id as string;
  };
  /** A completed kling-v3-omni text-to-video of 5 s at 720p, its video stored: the source of a Kling remix. */
  const KLING_STEP_MS = 15_000;
  const klingSource = async () => {
    const res = await auth(gw.http.post('/v1/videos'))
      .send({ model: 'kling-v3-omni', prompt: 'a lighthouse at dusk', seconds: '5', size: '1280x720' })
      .expect(200);
    await settle(KLING_STEP_MS);
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body.status).toBe('completed');
    return res.body.id as string;
  };
  const remix = (id: string, body: object) => auth(gw.http.post(`/v1/videos/${id}/remix`)).send(body);
  const contentLink = (id: string) => new RegExp(`^${gw.url}/v1/videos/${id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`);

  beforeAll(async () => {
    [xai, runway, kling] = await Promise.all([startXaiEmulator(), startRunwayEmulator(), startKlingEmulator()]);
    gw = await startGateway(kind);
    // Providers fetch the source from the gateway's public address.
    gw.config.publicBaseUrlSet = true;
    await gw.createChannel({ name: 'xai', platform: 'xai', base_url: xai.url, api_key: xai.apiKey, models: ['grok-imagine-video'] });
    await gw.createChannel({
      name: 'runway',
      platform: 'runway',
      base_url: runway.url,
      api_key: runway.apiKey,
      models: ['aleph2', 'gen4.5'],
    });
    // Kling would call back (push on, as PUBLIC_BASE_URL is set): off here, so that polls end its tasks.
    await gw.createChannel({
      name: 'kling',
      platform: 'kling',
      base_url: kling.url,
      api_key: kling.apiKey,
      models: ['kling-v3-omni'],
      settings: { push: false },
    });
    customer = await gw.createCustomer({ quota: QUOTA });
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all([xai?.close(), runway?.close(), kling?.close()]);
  });

  it("a remix (OpenAI's shape) is an xAI edit of the stored video: sent as the gateway's link, charged once by its seconds", async () => {
    const sourceId = await source('6');
    const before = await balance();
    const res = await remix(sourceId, { prompt: 'make it snow' }).expect(200);
    expect(res.body).toMatchObject({ object: 'video', model: 'grok-imagine-video', status: 'queued', remixed_from_video_id: sourceId });
    const create = xai.creates.at(-1)!;
    expect(create.request.path).toBe('/v1/videos/edits');
    expect(create.body).toEqual({
      model: 'grok-imagine-video',
      prompt: 'make it snow',
      video: { url: expect.stringMatching(contentLink(sourceId)) },
    });
    // xAI fetched the stored copy through the link, without a key.
    expect(xai.sourceFetches.at(-1)).toMatchObject({ url: (create.body.video as { url: string }).url, bytes: xai.videoBytes.length });
    const cost = 6 * XAI_480P;
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });

    await settle();
    const flat = (await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body;
    expect(flat).toMatchObject({ status: 'completed', remixed_from_video_id: sourceId });
    const unified = (await auth(gw.http.get(`/v1/video/generations/${res.body.id}`)).expect(200)).body.data;
    expect(unified).toMatchObject({ status: 'SUCCESS', action: 'videoEdit', properties: { source_task_id: sourceId } });
    expect(await ledgerOf(res.body.id)).toEqual([{ type: 'consume', quota: -cost }]);
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
    const detail = (await gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
    expect(detail.source_task_id).toBe(sourceId);
  });

  it('an extend on /v1/video/generations (metadata.source_task_id, mode video-extend): the seconds it adds, charged once', async () => {
    const sourceId = await source('6');
    const before = await balance();
    const res = await auth(gw.http.post('/v1/video/generations'))
      .send({
        model: 'grok-imagine-video',
        prompt: 'the keeper climbs the stairs',
        duration: 4,
        metadata: { source_task_id: sourceId, mode: 'video-extend', user: 'c-42' },
      })
      .expect(200);
    const create = xai.creates.at(-1)!;
    expect(create.request.path).toBe('/v1/videos/extensions');
    expect(create.body).toEqual({
      user: 'c-42',
      model: 'grok-imagine-video',
      prompt: 'the keeper climbs the stairs',
      duration: 4,
      video: { url: expect.stringMatching(contentLink(sourceId)) },
    });
    expect(xai.sourceFetches.at(-1)!.bytes).toBe(xai.videoBytes.length);
    await settle();
    const data = (await auth(gw.http.get(`/v1/video/generations/${res.body.id}`)).expect(200)).body.data;
    expect(data).toMatchObject({ status: 'SUCCESS', action: 'videoExtend', properties: { source_task_id: sourceId } });
    const cost = 4 * XAI_480P;
    expect(await ledgerOf(res.body.id)).toEqual([{ type: 'consume', quota: -cost }]);
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
  });

  it("a remix with Runway's aleph2: video_to_video with the link as videoUri, priced by the source's seconds, charged once", async () => {
    const sourceId = await source('5');
    const before = await balance();
    const res = await remix(sourceId, { prompt: 'paint it in watercolour', model: 'aleph2' }).expect(200);
    const submit = runway.submits().at(-1)!;
    expect(submit.path).toBe('/v1/video_to_video');
    expect(submit.json).toEqual({
      model: 'aleph2',
      videoUri: expect.stringMatching(contentLink(sourceId)),
      promptText: 'paint it in watercolour',
    });
    expect(runway.sourceFetches.at(-1)!.bytes).toBe(runway.videoBytes.length);
    await settle();
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body).toMatchObject({
      status: 'completed',
      model: 'aleph2',
      remixed_from_video_id: sourceId,
    });
    const cost = 5 * ALEPH2;
    expect(await ledgerOf(res.body.id)).toEqual([{ type: 'consume', quota: -cost }]);
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
  });

  it("a remix of a kling-v3-omni video is Kling's edit: the link as omni-video's base video, priced by the source's seconds, charged once", async () => {
    const sourceId = await klingSource();
    const before = await balance();
    const res = await remix(sourceId, { prompt: 'make it snow' }).expect(200);
    expect(res.body).toMatchObject({ model: 'kling-v3-omni', status: 'queued', remixed_from_video_id: sourceId });
    const create = kling.creates.at(-1)!;
    expect(create.endpoint).toBe('omni-video');
    // No duration or aspect ratio beside a base video: the edit follows it.
    expect(create.body).toEqual({
      model_name: 'kling-v3-omni',
      mode: 'std',
      prompt: 'make it snow',
      video_list: [{ video_url: expect.stringMatching(contentLink(sourceId)), refer_type: 'base', keep_original_sound: 'yes' }],
    });
    // Kling fetched the stored copy through the link, without a key.
    const link = (create.body.video_list as Array<{ video_url: string }>)[0].video_url;
    expect(kling.sourceFetches.at(-1)).toMatchObject({ url: link, bytes: kling.videoBytes.length });
    const cost = 5 * OMNI_720P;
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });

    await settle(KLING_STEP_MS);
    const unified = (await auth(gw.http.get(`/v1/video/generations/${res.body.id}`)).expect(200)).body.data;
    expect(unified).toMatchObject({ status: 'SUCCESS', action: 'videoEdit', properties: { source_task_id: sourceId } });
    expect(await ledgerOf(res.body.id)).toEqual([{ type: 'consume', quota: -cost }]);
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
  });

  it('a Kling extend (metadata.source_task_id, mode video-extend): the next shot from the source as a feature video, charged once by its seconds', async () => {
    const sourceId = await klingSource();
    const before = await balance();
    const res = await auth(gw.http.post('/v1/video/generations'))
      .send({
        model: 'kling-v3-omni',
        prompt: 'the keeper climbs the stairs',
        duration: 4,
        metadata: { source_task_id: sourceId, mode: 'video-extend', watermark_info: { enabled: false } },
      })
      .expect(200);
    const create = kling.creates.at(-1)!;
    expect(create.endpoint).toBe('omni-video');
    expect(create.body).toEqual({
      watermark_info: { enabled: false },
      model_name: 'kling-v3-omni',
      mode: 'std',
      duration: '4',
      prompt: 'Based on <<<video_1>>>, generate the next shot: the keeper climbs the stairs',
      aspect_ratio: '16:9',
      video_list: [{ video_url: expect.stringMatching(contentLink(sourceId)), refer_type: 'feature', keep_original_sound: 'no' }],
    });
    expect(kling.sourceFetches.at(-1)).toMatchObject({ url: expect.stringMatching(contentLink(sourceId)), bytes: kling.videoBytes.length });
    const cost = 4 * OMNI_720P;
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
    await settle(KLING_STEP_MS);
    const data = (await auth(gw.http.get(`/v1/video/generations/${res.body.id}`)).expect(200)).body.data;
    expect(data).toMatchObject({ status: 'SUCCESS', action: 'videoExtend', properties: { source_task_id: sourceId } });
    expect(await ledgerOf(res.body.id)).toEqual([{ type: 'consume', quota: -cost }]);
    expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
  });

  /** Seedance 2.0 (Ark) and Wan 2.7 (DashScope): each on its own emulator, its channel made here. */
  describe('Seedance and Wan', () => {
    /** Seeded list prices in quota per second: Seedance 2.0 at 480p, Wan 2.7 at 720p and 1080p. */
    const SEEDANCE_480P = 640;
    const WAN_720P = 1000;
    const WAN_1080P = 1500;
    let seedance: SeedanceEmulatorServer;
    let wan: WanEmulatorServer;

    beforeAll(async () => {
      [seedance, wan] = await Promise.all([startSeedanceEmulator(), startWanEmulator()]);
      await gw.createChannel({
        name: 'seedance',
        platform: 'seedance',
        base_url: seedance.url,
        api_key: seedance.apiKey,
        models: ['seedance-2-0'],
      });
      await gw.createChannel({
        name: 'wan',
        platform: 'wan',
        base_url: wan.url,
        api_key: wan.apiKey,
        models: ['wan2.7-videoedit', 'wan2.7-i2v'],
      });
    });
    afterAll(async () => {
      await Promise.all([seedance?.close(), wan?.close()]);
    });

    /** The new task completed, charged once: one consume row of `cost`, the balance down by it. */
    const chargedOnce = async (id: string, cost: number, before: { quota: number; used_quota: number }, action: string) => {
      expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
      // Ark and DashScope are polled every 10 s (Ark's first poll waits longer for its callback).
      let data: { status?: string } = {};
      for (let round = 0; round < 12 && data.status !== 'SUCCESS'; round++) {
        gw.clock.advance(15_000);
        await gw.sync();
        data = (await auth(gw.http.get(`/v1/video/generations/${id}`)).expect(200)).body.data;
      }
      expect(data).toMatchObject({ status: 'SUCCESS', action });
      expect(await ledgerOf(id)).toEqual([{ type: 'consume', quota: -cost }]);
      expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
    };

    it('a Seedance 2.0 edit: the source as Ark\'s reference_video, the prompt led by "Edit Video 1", priced by the source\'s seconds', async () => {
      const sourceId = await source('6');
      const before = await balance();
      const res = await remix(sourceId, { prompt: 'make it snow', model: 'seedance-2-0' }).expect(200);
      expect(res.body).toMatchObject({ model: 'seedance-2-0', status: 'queued', remixed_from_video_id: sourceId });
      const body = seedance.creates.at(-1)!.body;
      expect(body).toMatchObject({
        model: 'dreamina-seedance-2-0-260128',
        content: [
          { type: 'text', text: 'Edit Video 1: make it snow' },
          { type: 'video_url', video_url: { url: expect.stringMatching(contentLink(sourceId)) }, role: 'reference_video' },
        ],
        duration: 6,
        resolution: '480p',
        ratio: 'adaptive',
        generate_audio: true,
      });
      // Ark fetched the stored copy through the link, without a key.
      const url = (body.content as Array<{ video_url?: { url: string } }>)[1].video_url!.url;
      expect(seedance.sourceFetches.at(-1)).toMatchObject({ url, bytes: xai.videoBytes.length });
      await chargedOnce(res.body.id, 6 * SEEDANCE_480P, before, 'videoEdit');
    });

    it('a Seedance 2.0 extension (metadata.mode video-extend): the seconds it adds, charged once', async () => {
      const sourceId = await source('6');
      const before = await balance();
      const res = await auth(gw.http.post('/v1/video/generations'))
        .send({
          model: 'seedance-2-0',
          prompt: 'the keeper climbs the stairs',
          duration: 5,
          metadata: { source_task_id: sourceId, mode: 'video-extend' },
        })
        .expect(200);
      expect(seedance.creates.at(-1)!.body).toMatchObject({
        content: [
          { type: 'text', text: 'Extend Video 1: the keeper climbs the stairs' },
          { type: 'video_url', video_url: { url: expect.stringMatching(contentLink(sourceId)) }, role: 'reference_video' },
        ],
        duration: 5,
        ratio: 'adaptive',
      });
      expect(seedance.sourceFetches.at(-1)!.bytes).toBe(xai.videoBytes.length);
      await chargedOnce(res.body.id, 5 * SEEDANCE_480P, before, 'videoExtend');
    });

    it("a Wan edit: wan2.7-videoedit with the source as media video (no duration: the source's), priced by its seconds", async () => {
      const sourceId = await source('6');
      const before = await balance();
      const res = await remix(sourceId, {
        prompt: 'turn it into clay',
        model: 'wan2.7-videoedit',
        metadata: { audio_setting: 'origin' },
      }).expect(200);
      const create = wan.creates.at(-1)!;
      expect(create.body).toEqual({
        model: 'wan2.7-videoedit',
        input: { prompt: 'turn it into clay', media: [{ type: 'video', url: expect.stringMatching(contentLink(sourceId)) }] },
        parameters: { audio_setting: 'origin', resolution: '1080P' },
      });
      expect(wan.sourceFetches.at(-1)).toMatchObject({
        url: (create.body.input as { media: Array<{ url: string }> }).media[0].url,
        bytes: xai.videoBytes.length,
      });
      // The source's 480p names no resolution of the entry: priced at its highest.
      await chargedOnce(res.body.id, 6 * WAN_1080P, before, 'videoEdit');
    });

    it("a Wan extension: wan2.7-i2v with the source as first_clip, duration the whole new video's length", async () => {
      const sourceId = await source('4');
      const before = await balance();
      const res = await auth(gw.http.post('/v1/video/generations'))
        .send({
          model: 'wan2.7-i2v',
          prompt: 'the door opens',
          duration: 9,
          resolution: '720p',
          metadata: { source_task_id: sourceId, mode: 'video-extend' },
        })
        .expect(200);
      expect(wan.creates.at(-1)!.body).toEqual({
        model: 'wan2.7-i2v',
        input: { prompt: 'the door opens', media: [{ type: 'first_clip', url: expect.stringMatching(contentLink(sourceId)) }] },
        parameters: { resolution: '720P', duration: 9 },
      });
      expect(wan.sourceFetches.at(-1)!.bytes).toBe(xai.videoBytes.length);
      await chargedOnce(res.body.id, 9 * WAN_720P, before, 'videoExtend');
    });

    it("the providers' limits: 400 naming the field, before any charge", async () => {
      const long = await source('12');
      const short = await source('3');
      const before = await balance();
      const fetched = wan.sourceFetches.length + seedance.sourceFetches.length;
      const refused = async (res: { body: { error: { param?: string; message: string } } }, param: string, message: RegExp) => {
        expect(res.body.error).toMatchObject({ param, message: expect.stringMatching(message) });
      };
      await refused(await remix(long, { prompt: 'p', model: 'wan2.7-videoedit' }).expect(400), 'id', /is 12 s: a Wan edit takes 2 to 10 s/);
      await refused(
        await remix(short, { prompt: 'p', model: 'seedance-2-0' }).expect(400),
        'id',
        /is 3 s: a Seedance edit takes 4 to 15 s/,
      );
      await refused(
        await remix(short, { prompt: 'p', model: 'seedance-2-0', seconds: '5' }).expect(400),
        'seconds',
        /seconds is not taken by a Seedance edit/,
      );
      await refused(
        await remix(short, { prompt: 'p', model: 'wan2.7-i2v', seconds: '3', metadata: { mode: 'video-extend' } }).expect(400),
        'seconds',
        /the source's 3 s included/,
      );
      const sized = await auth(gw.http.post('/v1/video/generations'))
        .send({ model: 'seedance-2-0', prompt: 'p', size: '1280x720', metadata: { source_task_id: short, mode: 'video-extend' } })
        .expect(400);
      expect(sized.body.message).toMatch(/size is not taken by a Seedance extension/);
      const plain = await auth(gw.http.post('/v1/video/generations')).send({ model: 'wan2.7-videoedit', prompt: 'p' }).expect(400);
      expect(plain.body.message).toMatch(/wan2.7-videoedit edits a video/);
      expect(await balance()).toEqual(before);
      expect(wan.sourceFetches.length + seedance.sourceFetches.length).toBe(fetched);
    });
  });

  // Request rules: the same on every database, run on SQLite only.
  if (kind === 'sqlite') refusals();

  function refusals() {
    describe('refused before any charge', () => {
      let sourceId: string;
      let before: { quota: number; used_quota: number };
      const refused = async (res: { body: { error: { param?: string; message: string } } }, param: string | undefined, message: RegExp) => {
        expect(res.body.error.param).toBe(param);
        expect(res.body.error.message).toMatch(message);
        expect(await balance()).toEqual(before);
      };

      beforeAll(async () => {
        sourceId = await source('6');
      });
      beforeEach(async () => {
        before = await balance();
      });

      it("another customer's task: 404, as any task of another account", async () => {
        const other = await gw.createCustomer({ quota: QUOTA });
        const res = await auth(gw.http.post(`/v1/videos/${sourceId}/remix`), other.key)
          .send({ prompt: 'p' })
          .expect(404);
        expect(res.body.error.message).toContain(sourceId);
        const unified = await auth(gw.http.post('/v1/video/generations'), other.key)
          .send({ model: 'grok-imagine-video', prompt: 'p', metadata: { source_task_id: sourceId } })
          .expect(404);
        expect(unified.body).toMatchObject({ code: 'not_found', data: null });
      });

      it('a task not finished: 409 naming its status; its video not stored yet: 409 saying so', async () => {
        const running = await auth(gw.http.post('/v1/videos')).send({ model: 'grok-imagine-video', prompt: 'p', seconds: '2' }).expect(200);
        before = await balance();
        await refused(await remix(running.body.id, { prompt: 'p' }).expect(409), 'id', /is not completed \(status: queued\)/);
        const unstored = await auth(gw.http.post('/v1/videos'))
          .send({ model: 'grok-imagine-video', prompt: 'p', seconds: '2' })
          .expect(200);
        // The provider finished it; its copy is not stored yet (the archive job has not run).
        for (let round = 0; round < 5; round++) {
          gw.clock.advance(6_000);
          await gw.syncTasksOnly();
        }
        before = await balance();
        const res = await auth(gw.http.post('/v1/video/generations'))
          .send({ model: 'grok-imagine-video', prompt: 'p', metadata: { source_task_id: unstored.body.id } })
          .expect(409);
        expect(res.body).toMatchObject({ code: 'conflict', data: null });
        expect(res.body.message).toMatch(/is not stored yet/);
        expect(await balance()).toEqual(before);
        await settle();
      });

      it('a video the gateway no longer holds: 410 video_expired', async () => {
        const gone = await source('3');
        before = await balance();
        await executeOnDatabase(
          gw.database,
          "UPDATE video_archives SET status = 'failed' WHERE task_row_id = (SELECT id FROM tasks WHERE task_id = ?)",
          [gone],
        );
        const res = await remix(gone, { prompt: 'p' }).expect(410);
        expect(res.body.error.code).toBe('video_expired');
        await refused(res, 'id', /is gone/);
      });

      it('a mode no route of the model serves: 400 naming the mode', async () => {
        await refused(
          await remix(sourceId, { prompt: 'p', model: 'aleph2', metadata: { mode: 'video-extend' } }).expect(400),
          'metadata.mode',
          /no route of aleph2 serves video-extend/,
        );
        await refused(
          await remix(sourceId, { prompt: 'p', model: 'gen4.5' }).expect(400),
          'metadata.mode',
          /no route of gen4.5 serves video-edit/,
        );
        const res = await auth(gw.http.post('/v1/video/generations'))
          .send({ model: 'grok-imagine-video', prompt: 'p', metadata: { source_task_id: sourceId, mode: 'video-upscale' } })
          .expect(400);
        expect(res.body.message).toMatch(/metadata.mode must be video-edit or video-extend/);
      });

      it("the provider's limits: 400 naming the field", async () => {
        await refused(await remix(sourceId, { prompt: 'p', seconds: '5' }).expect(400), 'seconds', /seconds is not taken by an xAI edit/);
        await refused(
          await remix(sourceId, { prompt: 'p', seconds: '11', metadata: { mode: 'video-extend' } }).expect(400),
          'seconds',
          /1 to 10 seconds/,
        );
        const short = await source('1');
        before = await balance();
        const res = await auth(gw.http.post('/v1/video/generations'))
          .send({ model: 'grok-imagine-video', prompt: 'p', metadata: { source_task_id: short, mode: 'video-extend' } })
          .expect(400);
        expect(res.body.message).toMatch(/is 1 s: an xAI extension takes 2 to 30 s/);
        await refused(await remix(short, { prompt: 'p', model: 'aleph2' }).expect(400), 'id', /is 1 s: .* takes 2 to 30 s/);
        // aleph2 only edits: asked without a source, the field to give is named.
        const plain = await auth(gw.http.post('/v1/video/generations')).send({ model: 'aleph2', prompt: 'p' }).expect(400);
        expect(plain.body.message).toMatch(/aleph2 edits a video/);
        expect(runway.sourceFetches.every((fetched) => !fetched.url.includes(short))).toBe(true);
      });

      it("Kling's limits: 400 naming the field, nothing sent to Kling", async () => {
        const creates = kling.creates.length;
        // An xAI source of 480p is below Kling's 720 pixels.
        await refused(await remix(sourceId, { prompt: 'p', model: 'kling-v3-omni' }).expect(400), 'id', /720 to 2160 pixels/);
        const klingId = await klingSource();
        before = await balance();
        const creates2 = kling.creates.length;
        await refused(
          await remix(klingId, { prompt: 'p', seconds: '11', metadata: { mode: 'video-extend' } }).expect(400),
          'seconds',
          /3 to 10 seconds/,
        );
        await refused(await remix(klingId, { prompt: 'p', seconds: '5' }).expect(400), 'seconds', /not taken by a Kling edit/);
        await refused(
          await remix(klingId, { prompt: 'p', metadata: { sound: 'on' } }).expect(400),
          'metadata.sound',
          /must be "off" with a source video/,
        );
        expect(kling.creates.length).toBe(creates2);
        expect(creates2).toBe(creates + 1);
      });

      it('no PUBLIC_BASE_URL: 503, as no provider could fetch the link', async () => {
        gw.config.publicBaseUrlSet = false;
        try {
          const res = await remix(sourceId, { prompt: 'p' }).expect(503);
          expect(res.body.error.message).toMatch(/PUBLIC_BASE_URL/);
          expect(await balance()).toEqual(before);
        } finally {
          gw.config.publicBaseUrlSet = true;
        }
      });

      it('Swagger documents the remix route with its body and answers', async () => {
        const docs = (await gw.http.get('/docs-json').expect(200)).body;
        const route = docs.paths['/v1/videos/{id}/remix'].post;
        expect(route.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/RemixVideoRequest');
        expect(Object.keys(route.requestBody.content['application/json'].examples)).toEqual(['edit', 'extend']);
        expect(Object.keys(route.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409', '410']));
        expect(docs.components.schemas.FlatVideo.properties.remixed_from_video_id).toBeDefined();
      });
    });
  }
});
