import { betaChannelBody, BetaEmulatorServer, SAMPLE_MEDIA, startBetaEmulator } from './support/beta-emulator';
import { binaryBody } from './support/binary-body';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly, queryDatabase } from './support/test-databases';

/** Family B tasks followed to their end and read in both forms. */
describeEachDatabase('generations: family B lifecycle', (kind) => {
  let gw: TestGateway;
  let fake: BetaEmulatorServer;
  let customer: { userId: number; key: string };

  const auth = (test: import('supertest').Test) => test.set('Authorization', `Bearer ${customer.key}`);
  const submit = (body: object) => auth(gw.http.post('/v1/video/generations').send(body)).expect(200);
  const unified = (taskId: string) => auth(gw.http.get(`/v1/video/generations/${taskId}`)).expect(200);
  /** Moves time to the next family B poll (10 s by default) and runs one sync round. */
  const pollRound = async (ms = 10_000) => {
    gw.clock.advance(ms);
    await gw.sync();
  };

  beforeAll(async () => {
    fake = await startBetaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(betaChannelBody(fake));
    customer = await gw.createCustomer({ quota: 200_000 });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('shows every field of the unified form from NOT_START through QUEUED and IN_PROGRESS to SUCCESS', async () => {
    const submitted = await submit({ model: 'beta-1.0-t2v', prompt: 'a lighthouse in a storm', size: '720P' });
    const taskId = submitted.body.id;
    const upstreamId = fake.taskIds().at(-1)!;

    const fresh = await unified(taskId);
    expect(fresh.body).toEqual({
      code: 'success',
      message: '',
      data: {
        id: expect.any(Number),
        task_id: taskId,
        // Where the operator sends the task is not the customer's to see.
        platform: '',
        user_id: customer.userId,
        group: 'default',
        channel_id: 0,
        quota: 5000,
        action: 'textGenerate',
        status: 'NOT_START',
        fail_reason: '',
        result_url: '',
        submit_time: expect.any(Number),
        start_time: 0,
        finish_time: 0,
        created_at: submitted.body.created_at,
        updated_at: expect.any(Number),
        progress: '0%',
        properties: { input: 'a lighthouse in a storm', upstream_model_name: 'beta-1.0-t2v', origin_model_name: 'beta-1.0-t2v' },
        data: {},
      },
    });
    expect(fresh.body.data.submit_time).toBeGreaterThan(0);

    // Not due before the family B default of 10 s.
    await pollRound(9_000);
    expect(fake.queries()).toHaveLength(0);

    await pollRound(1_000);
    const queued = await unified(taskId);
    expect(fake.queries().at(-1)!.path).toBe(`/api/v1/tasks/${upstreamId}`);
    expect(fake.queries().at(-1)!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(queued.body.data).toMatchObject({ status: 'QUEUED', start_time: 0, progress: '0%' });
    expect(queued.body.data.data).toEqual({
      request_id: expect.any(String),
      output: { task_id: upstreamId, task_status: 'PENDING', submit_time: '2026-01-01 12:00:00.123' },
    });

    await pollRound();
    const running = await unified(taskId);
    expect(running.body.data).toMatchObject({ status: 'IN_PROGRESS', finish_time: 0, result_url: '' });
    // Estimated from the time since the submit: 16% at the clock's pushes, a little more for the real time a busy machine adds.
    expect(running.body.data.progress).toMatch(/^\d+%$/);
    expect(parseInt(running.body.data.progress, 10)).toBeGreaterThanOrEqual(16);
    expect(parseInt(running.body.data.progress, 10)).toBeLessThan(25);
    expect(running.body.data.start_time).toBeGreaterThan(0);
    expect(running.body.data.data.output.task_status).toBe('RUNNING');

    await pollRound();
    const done = await unified(taskId);
    expect(done.body).toEqual({
      code: 'success',
      message: '',
      data: {
        ...fresh.body.data,
        status: 'SUCCESS',
        // The gateway's own signed link; the provider's URL stays in the raw `data` only.
        result_url: expect.stringMatching(new RegExp(`^${gw.url}/v1/videos/${taskId}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`)),
        start_time: running.body.data.start_time,
        finish_time: expect.any(Number),
        updated_at: expect.any(Number),
        progress: '100%',
        // What it was charged for: the test provider's bytes are no video, so as asked.
        usage: { seconds: 5, resolution: '720p', audio: false, quota: 5000, usd: 0.5, settled: 'as_asked' },
        data: {
          request_id: expect.any(String),
          output: {
            task_id: upstreamId,
            task_status: 'SUCCEEDED',
            submit_time: '2026-01-01 12:00:00.123',
            scheduled_time: '2026-01-01 12:00:02.123',
            end_time: '2026-01-01 12:00:06.123',
            orig_prompt: 'a lighthouse in a storm',
            // The gateway's own signed link, never the provider's.
            video_url: done.body.data.result_url,
          },
          // Sent as floats (5.0) by the provider.
          usage: { duration: 5, input_video_duration: 0, output_video_duration: 5, video_count: 1, SR: 720, ratio: '16:9' },
        },
      },
    });
    expect(done.body.data.finish_time).toBeGreaterThanOrEqual(done.body.data.start_time);
    expect(JSON.stringify(done.body)).not.toContain(fake.url);
    const queriesAtEnd = fake.queries().length;
    await pollRound();
    expect(fake.queries()).toHaveLength(queriesAtEnd);
    expect(await gw.balance(customer.userId)).toEqual({ quota: 195_000, used_quota: 5000 });
  });

  it('reports FAILURE with the upstream code (never its message), 100%, code success, and refunds once', async () => {
    const before = await gw.balance(customer.userId);
    fake.scriptNext([
      'RUNNING',
      { status: 'FAILED', code: 'InternalError.Algo', message: 'An internal error occurred during video generation.' },
    ]);
    const { body } = await submit({ model: 'beta-1.0-t2v', prompt: 'doomed' });
    expect((await gw.balance(customer.userId)).quota).toBe(before.quota - 7500);
    await pollRound();
    await pollRound();
    const failed = await unified(body.id);
    const reason = 'generation failed: InternalError.Algo: provider internal error';
    expect(failed.body).toMatchObject({
      code: 'success',
      message: '',
      data: { task_id: body.id, status: 'FAILURE', fail_reason: reason, progress: '100%', result_url: '', quota: 7500 },
    });
    expect(failed.body.data.finish_time).toBeGreaterThan(0);
    expect(failed.body.data.data.output).toMatchObject({ task_status: 'FAILED', code: 'InternalError.Algo' });
    expect(await gw.balance(customer.userId)).toEqual(before);
    const refunds = await gw.admin.get(`/api/admin/logs?task_id=${body.id}&type=refund`).expect(200);
    expect(refunds.body.total).toBe(1);
    expect(refunds.body.data[0]).toMatchObject({
      type: 'refund',
      task_id: body.id,
      quota: 7500,
      user_id: customer.userId,
      detail: `refund: task ${body.id} failed: ${reason}`,
    });
    await pollRound();
    expect((await gw.admin.get(`/api/admin/logs?task_id=${body.id}&type=refund`).expect(200)).body.total).toBe(1);
  });

  it.each([
    [
      'moderation',
      { status: 'FAILED' as const, code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' },
      'content moderation failed: DataInspectionFailed',
    ],
    ['CANCELED', { status: 'CANCELED' as const }, 'generation failed: the task was canceled upstream'],
    ['UNKNOWN', { status: 'UNKNOWN' as const }, 'generation failed: the provider no longer knows the task (UNKNOWN)'],
  ])('maps %s to FAILURE with a refund', async (_name, step, reason) => {
    const before = await gw.balance(customer.userId);
    fake.scriptNext([step]);
    const { body } = await submit({ model: 'beta-1.0-t2v', prompt: 'p' });
    await pollRound();
    expect((await unified(body.id)).body.data).toMatchObject({ status: 'FAILURE', fail_reason: reason, progress: '100%' });
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('keeps polling after a failed query, and the task still completes', async () => {
    fake.scriptNext(['SUCCEEDED']);
    const { body } = await submit({ model: 'beta-1.0-t2v', prompt: 'p' });
    fake.failNextQuery({ status: 500, code: 'InternalError', message: 'try again' });
    await pollRound();
    expect((await unified(body.id)).body.data.status).toBe('NOT_START');
    await pollRound(10 * 60_000);
    expect((await unified(body.id)).body.data.status).toBe('SUCCESS');
  });

  it('fails a task still PENDING after TASK_TIMEOUT_MS (30 min) with `upstream timeout`, in both forms, and refunds once', async () => {
    const before = await gw.balance(customer.userId);
    fake.scriptNext(['PENDING']);
    const { body } = await submit({ model: 'beta-1.0-t2v', prompt: 'stuck upstream' });
    await pollRound();
    expect((await unified(body.id)).body.data).toMatchObject({ status: 'QUEUED', fail_reason: '' });
    await pollRound(30 * 60_000);
    const failed = (await unified(body.id)).body;
    expect(failed).toMatchObject({
      code: 'success',
      data: { status: 'FAILURE', fail_reason: 'upstream timeout', progress: '100%', result_url: '' },
    });
    expect(failed.data.finish_time).toBeGreaterThan(0);
    const flat = await auth(gw.http.get(`/v1/videos/${body.id}`)).expect(200);
    expect(flat.body).toMatchObject({ status: 'failed', error: { message: 'upstream timeout' } });
    await pollRound();
    expect(await gw.balance(customer.userId)).toEqual(before);
    const refunds = await gw.admin.get(`/api/admin/logs?task_id=${body.id}&type=refund`).expect(200);
    expect(refunds.body.data).toEqual([
      expect.objectContaining({ quota: 7500, detail: `refund: task ${body.id} failed: upstream timeout` }),
    ]);
  });

  itOnSqliteOnly(kind)('honours a channel poll_interval_ms, but never polls family B faster than every 5 s', async () => {
    const quick = await startBetaEmulator({ apiKey: 'quick' });
    const slow = await startBetaEmulator({ apiKey: 'slow' });
    const quickId = await gw.createChannel({
      ...betaChannelBody(quick),
      models: ['beta-1.0-r2v'],
      priority: 5,
      settings: { poll_interval_ms: 1000 },
    });
    const slowId = await gw.createChannel({
      ...betaChannelBody(slow),
      models: ['beta-1.0-i2v'],
      priority: 5,
      settings: { poll_interval_ms: 20_000 },
    });
    try {
      const image = fake.serveMedia('poll.png', SAMPLE_MEDIA.png);
      quick.defaultScript = ['PENDING'];
      slow.defaultScript = ['PENDING'];
      await submit({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [{ type: 'reference_image', url: image }] } } });
      await submit({ model: 'beta-1.0-i2v', prompt: 'p', input_reference: image });
      await pollRound(4_000);
      expect(quick.queries()).toHaveLength(0);
      await pollRound(1_000);
      expect(quick.queries()).toHaveLength(1);
      await pollRound(10_000);
      expect(quick.queries()).toHaveLength(2);
      expect(slow.queries()).toHaveLength(0);
      await pollRound(5_000);
      expect(slow.queries()).toHaveLength(1);
    } finally {
      await gw.admin.patch(`/api/admin/channels/${quickId}`, { status: 'disabled' }).expect(200);
      await gw.admin.patch(`/api/admin/channels/${slowId}`, { status: 'disabled' }).expect(200);
      await quick.close();
      await slow.close();
    }
  });

  describe('one task behind both endpoint sets', () => {
    it('a task submitted on /v1/video/generations reads as the flat form on /v1/videos, with /content', async () => {
      fake.scriptNext(['SUCCEEDED']);
      const { body } = await submit({ model: 'beta-1.0-t2v', prompt: 'both forms' });
      const queued = await auth(gw.http.get(`/v1/videos/${body.id}`)).expect(200);
      expect(queued.body).toMatchObject({
        id: body.id,
        object: 'video',
        model: 'beta-1.0-t2v',
        status: 'queued',
        progress: 0,
        created_at: body.created_at,
      });
      await pollRound();
      const flat = await auth(gw.http.get(`/v1/videos/${body.id}`)).expect(200);
      expect(flat.body).toMatchObject({
        id: body.id,
        object: 'video',
        model: 'beta-1.0-t2v',
        status: 'completed',
        progress: 100,
        created_at: body.created_at,
        completed_at: expect.any(Number),
        metadata: { url: expect.stringContaining('/videos/') },
      });
      const content = await auth(gw.http.get(`/v1/videos/${body.id}/content`))
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(content.headers['content-type']).toMatch(/video\/mp4/);
      expect(Buffer.compare(content.body as Buffer, fake.videoBytes)).toBe(0);
    });

    it('/content re-queries the provider for a fresh signed link once the stored one expired', async () => {
      fake.scriptNext(['SUCCEEDED']);
      const { body } = await submit({ model: 'beta-1.0-t2v', prompt: 'expiring link' });
      // The provider is done; its video is not archived yet, so /content serves it from the provider.
      gw.clock.advance(10_000);
      await gw.syncTasksOnly();
      const [{ result_url: stored }] = await queryDatabase<{ result_url: string }>(
        gw.database,
        `SELECT result_url FROM tasks WHERE task_id = '${body.id}'`,
      );
      fake.expireVideoLinks();
      const queries = fake.queries().length;
      const content = await auth(gw.http.get(`/v1/videos/${body.id}/content`))
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(Buffer.compare(content.body as Buffer, fake.videoBytes)).toBe(0);
      expect(fake.queries()).toHaveLength(queries + 1);
      expect(JSON.stringify(content.headers)).not.toContain(fake.url);
      // The link stored is the provider's first one, the one expired.
      const upstreamId = fake.taskIds().at(-1)!;
      expect(stored).toMatch(new RegExp(`^${fake.url}/videos/${upstreamId}\\.mp4\\?Expires=\\d+&OSSAccessKeyId=\\w+&Signature=[\\w-]+$`));
      expect((await fetch(stored)).status).toBe(403);
    });

    it('a family B task submitted on /v1/videos reads in the unified form, and fails in both forms', async () => {
      const before = await gw.balance(customer.userId);
      const res = await auth(gw.http.post('/v1/videos').send({ model: 'beta-1.0-t2v', prompt: 'via flat', duration: 4 })).expect(200);
      expect(res.body).toMatchObject({ id: expect.stringMatching(/^task_/), object: 'video', model: 'beta-1.0-t2v', status: 'queued' });
      expect(fake.submits().at(-1)!.json).toMatchObject({ parameters: { duration: 4, ratio: '16:9', resolution: '1080P' } });
      expect((await unified(res.body.id)).body.data).toMatchObject({
        task_id: res.body.id,
        status: 'NOT_START',
        action: 'textGenerate',
        quota: 6000,
      });
      await fake.scriptTask(fake.taskIds().at(-1)!, [{ status: 'FAILED', code: 'InternalError.Timeout', message: 'timed out' }]);
      await pollRound();
      expect((await unified(res.body.id)).body.data).toMatchObject({
        status: 'FAILURE',
        fail_reason: 'generation failed: InternalError.Timeout: provider internal error',
      });
      const flat = await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200);
      expect(flat.body).toMatchObject({
        status: 'failed',
        error: { message: 'generation failed: InternalError.Timeout: provider internal error' },
      });
      expect(await gw.balance(customer.userId)).toEqual(before);
    });
  });
});
