import type { Test } from 'supertest';
import { alphaChannelBody, binaryBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly, queryDatabase } from './support/test-databases';

/** alpha/v5 720p 5 s: 60 credits. */
const V5_PRICE = 6000;

describeEachDatabase('videos: following, downloading, listing and deleting', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(alphaChannelBody(fake));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const as = (key: string) => ({
    submit: (body: object = { model: 'alpha/v5', prompt: 'a boat' }) =>
      gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(body).expect(200),
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
    head: (path: string) => gw.http.head(path).set('Authorization', `Bearer ${key}`),
    delete: (path: string) => gw.http.delete(path).set('Authorization', `Bearer ${key}`),
  });
  const download = (test: Test) => test.buffer(true).parse(binaryBody);
  /** The fake's id of the video the latest submit created, and how often it was queried. */
  const latestVideoId = () => Math.max(...fake.videos.keys());
  const pollsOf = (videoId: number) => fake.calls('result').filter((call) => call.path.endsWith(`/${videoId}`)).length;
  /** Family A is polled every 4 s by default. */
  const pollRound = async (ms = 4000) => {
    gw.clock.advance(ms);
    await gw.sync();
  };

  it('follows a task to completion: queued, in progress with growing progress, completed with size and url', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const client = as(key);
    fake.scriptNext([5, 5, 5, 1]);
    const { body: submitted } = await client.submit();
    const videoId = latestVideoId();
    const first = await client.get(`/v1/videos/${submitted.id}`).expect(200);
    // As OpenAI's video object: the length asked for as a string, and no asset to expire yet.
    expect(first.body).toEqual({ ...submitted, seconds: '5', expires_at: null });

    gw.clock.advance(3000);
    await gw.sync();
    expect(pollsOf(videoId)).toBe(0); // not due before 4 s
    await pollRound(1000);
    expect(pollsOf(videoId)).toBe(1);
    const running = (await client.get(`/v1/videos/${submitted.id}`).expect(200)).body;
    expect(running).toMatchObject({ status: 'in_progress' });
    expect(running.progress).toBeGreaterThan(0);
    await pollRound(20_000);
    const later = (await client.get(`/v1/videos/${submitted.id}`).expect(200)).body;
    expect(later.status).toBe('in_progress');
    expect(later.progress).toBeGreaterThan(running.progress);
    expect(later.progress).toBeLessThan(100);
    await pollRound();
    expect((await client.get(`/v1/videos/${submitted.id}`).expect(200)).body.progress).toBeGreaterThanOrEqual(later.progress);
    const completingFrom = Math.floor(gw.clock.now() / 1000);
    await pollRound();
    const done = (await client.get(`/v1/videos/${submitted.id}`).expect(200)).body;
    // Completed during that round (real time moves on meanwhile, so a second may turn).
    expect(done.completed_at).toBeGreaterThanOrEqual(completingFrom);
    expect(done.completed_at).toBeLessThanOrEqual(Math.floor(gw.clock.now() / 1000));
    expect(done).toEqual({
      id: submitted.id,
      task_id: submitted.id,
      object: 'video',
      model: 'alpha/v5',
      status: 'completed',
      progress: 100,
      created_at: submitted.created_at,
      completed_at: expect.any(Number),
      size: '1280x720',
      seconds: '5',
      expires_at: expect.any(Number),
      // What it was charged for: the test provider's bytes are no video, so as asked.
      usage: { seconds: 5, resolution: '720p', audio: false, quota: 6000, usd: 0.6, settled: 'as_asked' },
      // The gateway's own signed link, never the provider's URL.
      metadata: {
        url: expect.stringMatching(new RegExp(`^${gw.url}/v1/videos/${submitted.id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`)),
      },
    });
    // expires_at is when that link stops playing.
    expect(String(done.expires_at)).toBe(new URL(done.metadata.url).searchParams.get('expires'));
    // A finished task is not polled again.
    await pollRound();
    expect(pollsOf(videoId)).toBe(4);
  });

  describe('download through /content', () => {
    let key: string;
    let taskId: string;
    let videoId: number;

    beforeAll(async () => {
      ({ key } = await gw.createCustomer({ quota: QUOTA }));
      fake.scriptNext([1]);
      taskId = (await as(key).submit()).body.id;
      videoId = latestVideoId();
      // The provider is done; its video is not archived yet, so /content serves it from the provider.
      gw.clock.advance(4000);
      await gw.syncTasksOnly();
    });

    itOnSqliteOnly(kind)('streams the exact bytes as video/mp4 with Content-Length and Accept-Ranges', async () => {
      const res = await download(as(key).get(`/v1/videos/${taskId}/content`)).expect(200);
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(Number(res.headers['content-length'])).toBe(fake.videoBytes.length);
      expect(Buffer.compare(res.body as Buffer, fake.videoBytes)).toBe(0);
    });

    itOnSqliteOnly(kind)('answers Range with 206 and the exact slice, and HEAD with the headers only', async () => {
      const total = fake.videoBytes.length;
      const ranged = await download(as(key).get(`/v1/videos/${taskId}/content`).set('Range', 'bytes=100-1123')).expect(206);
      expect(ranged.headers['content-range']).toBe(`bytes 100-1123/${total}`);
      expect(ranged.headers['content-length']).toBe('1024');
      expect(Buffer.compare(ranged.body as Buffer, fake.videoBytes.subarray(100, 1124))).toBe(0);
      const tail = await download(as(key).get(`/v1/videos/${taskId}/content`).set('Range', 'bytes=-10')).expect(206);
      expect(Buffer.compare(tail.body as Buffer, fake.videoBytes.subarray(total - 10))).toBe(0);
      const head = await as(key).head(`/v1/videos/${taskId}/content`).expect(200);
      expect(head.headers['content-length']).toBe(String(total));
      expect(head.headers['content-type']).toBe('video/mp4');
      expect(head.headers['accept-ranges']).toBe('bytes');
      expect(head.text ?? '').toBe('');
    });

    itOnSqliteOnly(kind)('ignores unknown query parameters, and 404s another variant', async () => {
      const res = await download(as(key).get(`/v1/videos/${taskId}/content?variant=video&foo=bar`)).expect(200);
      expect((res.body as Buffer).length).toBe(fake.videoBytes.length);
      const other = await as(key).get(`/v1/videos/${taskId}/content?variant=spritesheet`).expect(404);
      expect(other.body.error).toMatchObject({ message: `video ${taskId} has no spritesheet variant`, code: 'not_found' });
      // The poster frame is made when the video is archived: not yet here.
      const thumb = await as(key).get(`/v1/videos/${taskId}/content?variant=thumbnail`).expect(404);
      expect(thumb.body.error).toMatchObject({ message: `video ${taskId} has no thumbnail yet`, code: 'not_found' });
    });

    it('fetches a fresh URL when the stored one has expired, and keeps it', async () => {
      fake.expireUrls();
      const queriesBefore = pollsOf(videoId);
      const res = await download(as(key).get(`/v1/videos/${taskId}/content`)).expect(200);
      expect(Buffer.compare(res.body as Buffer, fake.videoBytes)).toBe(0);
      expect(pollsOf(videoId)).toBe(queriesBefore + 1);
      const [row] = await queryDatabase<{ result_url: string }>(gw.database, `SELECT result_url FROM tasks WHERE task_id = '${taskId}'`);
      expect(row.result_url).toMatch(/[?&]v=2$/);
      await download(as(key).get(`/v1/videos/${taskId}/content`)).expect(200);
      expect(pollsOf(videoId)).toBe(queriesBefore + 1);
    });

    itOnSqliteOnly(kind)('answers 503 without naming the upstream URL when no fresh one can be had', async () => {
      fake.expireUrls();
      fake.inject('result', { http: 500 }, 1);
      const res = await as(key).get(`/v1/videos/${taskId}/content`).expect(503);
      expect(res.body.error).toMatchObject({
        message: 'the video is temporarily unavailable from the provider, retry later',
        code: 'service_unavailable',
      });
      expect(JSON.stringify(res.body)).not.toContain(fake.url);
      expect(JSON.stringify(res.body)).not.toContain('127.0.0.1');
    });

    itOnSqliteOnly(kind)('answers 404 for another account and for an unknown id', async () => {
      const other = await gw.createCustomer({ quota: QUOTA });
      for (const path of [`/v1/videos/${taskId}/content`, `/v1/videos/${taskId}`]) {
        const res = await as(other.key).get(path).expect(404);
        expect(res.body).toEqual({
          error: { message: `task ${taskId} not found`, type: 'invalid_request_error', param: null, code: 'not_found' },
        });
      }
      await as(key).get('/v1/videos/task_doesNotExist000000000000000/content').expect(404);
    });
  });

  itOnSqliteOnly(kind)('answers 409 naming the status when the video is not ready', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    fake.scriptNext([5]);
    const { body } = await as(key).submit();
    const queued = await as(key).get(`/v1/videos/${body.id}/content`).expect(409);
    expect(queued.body).toEqual({
      error: {
        message: `video ${body.id} is not completed (status: queued)`,
        type: 'invalid_request_error',
        param: null,
        code: 'conflict',
      },
    });
    await pollRound();
    const running = await as(key).head(`/v1/videos/${body.id}/content`).expect(409);
    expect(running.headers['content-type']).toMatch(/json/);
    expect((await as(key).get(`/v1/videos/${body.id}/content`).expect(409)).body.error.message).toBe(
      `video ${body.id} is not completed (status: in_progress)`,
    );
  });

  it.each([
    [8, 'generation failed'],
    [6, 'generation failed'],
    [7, 'content moderation failed'],
  ])('refunds a task that ends with status %s (%s) once, with a refund log naming task and reason', async (status, reason) => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    fake.scriptNext([5, status]);
    const { body } = await as(key).submit();
    const videoId = latestVideoId();
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - V5_PRICE, used_quota: V5_PRICE });
    await pollRound();
    await pollRound();
    await pollRound();
    const failed = (await as(key).get(`/v1/videos/${body.id}`).expect(200)).body;
    expect(failed).toMatchObject({ id: body.id, status: 'failed', error: { message: reason, code: reason.replace(/ /g, '_') } });
    expect(failed.metadata).toBeUndefined();
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    const refunds = await gw.admin.get(`/api/admin/logs?task_id=${body.id}&type=refund`).expect(200);
    expect(refunds.body.total).toBe(1);
    expect(refunds.body.data[0]).toMatchObject({
      type: 'refund',
      user_id: userId,
      task_id: body.id,
      model: 'alpha/v5',
      quota: V5_PRICE,
      balance_after: QUOTA,
    });
    expect(refunds.body.data[0].detail).toContain(body.id);
    expect(refunds.body.data[0].detail).toContain(reason);
    expect(pollsOf(videoId)).toBe(2);
  });

  it('lists the caller’s videos newest first with cursor paging, and only theirs', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await as(key).submit({ model: 'alpha/v5', prompt: `clip ${i}` })).body.id);
    const page1 = (await as(key).get('/v1/videos?limit=2').expect(200)).body;
    expect(page1).toMatchObject({ object: 'list', first_id: ids[2], last_id: ids[1], has_more: true });
    expect(page1.data.map((video: { id: string }) => video.id)).toEqual([ids[2], ids[1]]);
    expect(page1.data[0]).toMatchObject({ object: 'video', model: 'alpha/v5', status: 'queued' });
    const page2 = (await as(key).get(`/v1/videos?limit=2&after=${page1.last_id}`).expect(200)).body;
    expect(page2).toMatchObject({ first_id: ids[0], last_id: ids[0], has_more: false });
    const ascending = (await as(key).get('/v1/videos?order=asc&unknown=1').expect(200)).body;
    expect(ascending.data.map((video: { id: string }) => video.id)).toEqual(ids);
    const bad = await as(key).get('/v1/videos?limit=101').expect(400);
    expect(bad.body.error).toMatchObject({ message: 'limit must be an integer between 1 and 100', param: 'limit' });
    const stranger = await gw.createCustomer({ quota: 0 });
    expect((await as(stranger.key).get('/v1/videos').expect(200)).body).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
    await as(stranger.key).get(`/v1/videos?after=${ids[0]}`).expect(400);
  });

  it('deletes finished videos only, and forgets them', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    fake.scriptNext([5]);
    const running = (await as(key).submit()).body.id;
    fake.scriptNext([1]);
    const finished = (await as(key).submit()).body.id;
    await pollRound();
    const refused = await as(key).delete(`/v1/videos/${running}`).expect(409);
    expect(refused.body.error.message).toBe(
      `video ${running} is not finished yet (status: in_progress); only completed or failed videos can be deleted`,
    );
    const other = await gw.createCustomer({ quota: 0 });
    await as(other.key).delete(`/v1/videos/${finished}`).expect(404);
    const deleted = await as(key).delete(`/v1/videos/${finished}`).expect(200);
    expect(deleted.body).toEqual({ id: finished, object: 'video.deleted', deleted: true });
    await as(key).get(`/v1/videos/${finished}`).expect(404);
    await as(key).get(`/v1/videos/${finished}/content`).expect(404);
    await as(key).delete(`/v1/videos/${finished}`).expect(404);
    expect((await as(key).get('/v1/videos').expect(200)).body.data.map((video: { id: string }) => video.id)).toEqual([running]);
  });

  itOnSqliteOnly(kind)('documents the flat form as a named Swagger schema with examples', async () => {
    const docs = (await gw.http.get('/docs-json').expect(200)).body;
    const flat = docs.components.schemas.FlatVideo;
    expect(Object.keys(flat.properties)).toEqual(
      expect.arrayContaining(['id', 'status', 'progress', 'created_at', 'completed_at', 'size', 'metadata', 'error']),
    );
    expect(flat.properties.status).toMatchObject({ enum: ['queued', 'in_progress', 'completed', 'failed'], example: 'completed' });
    expect(docs.paths['/v1/videos/{id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/FlatVideo',
    });
    expect(Object.keys(docs.paths['/v1/videos'].post.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(docs.paths['/v1/videos/{id}/content'].head).toBeDefined();
    const examples = docs.paths['/v1/videos/{id}'].get.responses['200'].content['application/json'].examples;
    expect(examples.completed.value).toMatchObject({
      status: 'completed',
      progress: 100,
      size: '1280x720',
      metadata: { url: expect.any(String) },
    });
    expect(examples.failed.value).toMatchObject({ status: 'failed', error: { message: 'content moderation failed' } });
    // Errors have a named schema in OpenAI's shape; the optional Idempotency-Key and X-Gateway-Hops (set by chained gateways) are the submit's only parameters.
    expect(docs.paths['/v1/videos'].post.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OpenAIError',
    });
    expect(Object.keys(docs.components.schemas.OpenAIErrorDetail.properties)).toEqual(['message', 'type', 'param', 'code']);
    const parameters = docs.paths['/v1/videos'].post.parameters;
    expect(parameters).toHaveLength(2);
    expect(parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
        expect.objectContaining({ name: 'X-Gateway-Hops', in: 'header', required: false }),
      ]),
    );
  });

  describe('family B tasks on /v1/videos', () => {
    let beta: BetaEmulatorServer;

    beforeAll(async () => {
      beta = await startBetaEmulator();
      await gw.createChannel(betaChannelBody(beta));
    });
    afterAll(async () => beta?.close());

    it('submits a beta body with OpenAI spellings, reads it in the flat form and downloads it', async () => {
      const { key } = await gw.createCustomer({ quota: QUOTA });
      beta.scriptNext(['SUCCEEDED']);
      const { body } = await as(key).submit({ model: 'beta-1.0-t2v', prompt: 'a lighthouse', seconds: '5', size: '1280x720' });
      expect(body).toMatchObject({ object: 'video', model: 'beta-1.0-t2v', status: 'queued', task_id: body.id });
      const sent = beta.submits()[0].json as { parameters: Record<string, unknown> };
      expect(sent.parameters).toMatchObject({ resolution: '720P', duration: 5 });
      await pollRound(10_000);
      const done = (await as(key).get(`/v1/videos/${body.id}`).expect(200)).body;
      expect(done).toMatchObject({
        id: body.id,
        object: 'video',
        model: 'beta-1.0-t2v',
        status: 'completed',
        progress: 100,
        completed_at: expect.any(Number),
        metadata: { url: expect.any(String) },
      });
      const video = await download(as(key).get(`/v1/videos/${body.id}/content`)).expect(200);
      expect(Buffer.compare(video.body as Buffer, beta.videoBytes)).toBe(0);
      expect((await as(key).get('/v1/videos').expect(200)).body.data[0].id).toBe(body.id);
    });
  });
});
