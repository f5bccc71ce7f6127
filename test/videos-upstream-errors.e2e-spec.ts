import { get } from 'node:http';
import { AlphaApiClient } from '../src/families/alpha/alpha-api.client';
import { alphaChannelBody, AlphaFault, fakePng, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;

describeOnSqlite('videos: upstream trouble', (kind) => {
  describe('refused submits', () => {
    let gw: TestGateway;
    let fake: AlphaEmulatorServer;
    let channelId: number;

    beforeAll(async () => {
      fake = await startAlphaEmulator();
      gw = await startGateway(kind);
      channelId = await gw.createChannel(alphaChannelBody(fake));
      gw.app.get(AlphaApiClient).timeouts.generateMs = 300;
    });
    afterAll(async () => {
      await gw?.close();
      await fake?.close();
    });
    // Each case on its own: the faults of the ones before would have opened the channel's breaker.
    afterEach(async () => {
      fake.clearFaults();
      await gw.admin.post(`/api/admin/channels/${channelId}/breaker/close`).expect(200);
    });

    const BUSY = 'upstream concurrency limit reached, retry later';
    const DOWN = 'upstream channel unavailable, retry later';
    it.each<[string, AlphaFault, number, string, string | undefined]>([
      [
        'an invalid parameter (400011)',
        { errCode: 400011, message: 'invalid parameter' },
        400,
        'upstream rejected the request: ErrCode 400011: invalid parameter',
        undefined,
      ],
      [
        'a too long prompt (400018)',
        { errCode: 400018, message: 'prompt too long' },
        400,
        'upstream rejected the request: ErrCode 400018: prompt too long',
        undefined,
      ],
      ['the concurrency limit (500044)', { errCode: 500044 }, 429, BUSY, '10'],
      ['HTTP 429 with Retry-After', { http: 429, retryAfter: 7 }, 429, BUSY, '7'],
      ['a lower-case 500044 envelope on HTTP 429', { errCode: 500044, httpStatus: 429, lowerCase: true, retryAfter: 3 }, 429, BUSY, '3'],
      ['provider arrears (500090)', { errCode: 500090 }, 503, DOWN, '30'],
      ['system busy (500069)', { errCode: 500069 }, 503, DOWN, '30'],
      ['an unknown lower-case error on HTTP 502', { errCode: 500052, httpStatus: 502, lowerCase: true }, 503, DOWN, '30'],
      ['HTTP 500', { http: 500 }, 503, DOWN, '30'],
      ['an unparseable body', { garbage: true }, 503, DOWN, '30'],
      ['no answer at all', { hang: true }, 503, DOWN, '30'],
    ])('%s: answers %s and charges nothing', async (_name, fault, status, message, retryAfter) => {
      const { userId, key } = await gw.createCustomer({ quota: QUOTA });
      fake.inject('generate', fault);
      const res = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v6', prompt: 'a cat' })
        .expect(status);
      expect(res.body.error).toMatchObject({ message, param: null });
      expect(res.headers['retry-after']).toBe(retryAfter);
      expect(JSON.stringify(res.body)).not.toContain(fake.url);
      expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
      expect((await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200)).body.data).toEqual([]);
      const logs = await gw.admin.get(`/api/admin/logs?user_id=${userId}`).expect(200);
      // A hold released at once: never a charge and a refund of a task the client never got.
      expect(logs.body.data.map((log: { type: string }) => log.type).sort()).toEqual(['hold', 'release', 'topup']);
      expect(logs.body.data.find((log: { type: string }) => log.type === 'release')?.detail).toMatch(/rejected at submit/);
      expect((await gw.http.get('/metrics').expect(200)).text).toMatch(/gateway_refunds_total\{family="alpha",cause="rejected"\} [1-9]/);
    });

    it.each([500054, 500063])(
      'moderation at submit (ErrCode %s): the task fails with `content moderation failed` and is refunded once',
      async (errCode) => {
        const { userId, key } = await gw.createCustomer({ quota: QUOTA });
        fake.inject('generate', { errCode, message: 'risk' }, 1);
        const submitted = await gw.http
          .post('/v1/videos')
          .set('Authorization', `Bearer ${key}`)
          .send({ model: 'alpha/v6', prompt: 'a cat' })
          .expect(200);
        expect(submitted.body).toMatchObject({ id: expect.stringMatching(/^task_/), status: 'failed', progress: 100 });
        const read = await gw.http.get(`/v1/videos/${submitted.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
        expect(read.body).toMatchObject({ status: 'failed', error: { message: 'content moderation failed' } });
        expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
        const logs = (await gw.admin.get(`/api/admin/logs?task_id=${submitted.body.id}`).expect(200)).body.data;
        expect(logs.map((log: { type: string }) => log.type).sort()).toEqual(['consume', 'refund']);
        expect(logs.find((log: { type: string }) => log.type === 'refund').detail).toContain('content moderation failed');
        expect((await gw.http.get('/metrics').expect(200)).text).toMatch(/gateway_refunds_total\{family="alpha",cause="failure"\} [1-9]/);
        await gw.sync();
        expect((await gw.admin.get(`/api/admin/logs?task_id=${submitted.body.id}&type=refund`).expect(200)).body.total).toBe(1);
      },
    );

    it('keeps following a task through failing polls and finishes it afterwards', async () => {
      const { key } = await gw.createCustomer({ quota: QUOTA });
      fake.scriptNext([1]);
      const { body } = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: 'x' })
        .expect(200);
      for (const fault of [{ http: 500 }, { garbage: true }, { errCode: 99999 }] as AlphaFault[]) {
        fake.inject('result', fault, 1);
        gw.clock.advance(6 * 60_000); // past any back-off (at most 5 min), within the 30 min task timeout
        await gw.sync();
        const video = await gw.http.get(`/v1/videos/${body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
        expect(video.body.status).toBe('queued');
      }
      gw.clock.advance(6 * 60_000);
      await gw.sync();
      expect((await gw.http.get(`/v1/videos/${body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.status).toBe('completed');
      const videoId = Math.max(...fake.videos.keys());
      expect(fake.calls('result').filter((call) => call.path.endsWith(`/${videoId}`))).toHaveLength(4);
    });

    it('streams the video as it arrives instead of buffering it whole', async () => {
      const { key } = await gw.createCustomer({ quota: QUOTA });
      fake.scriptNext([1]);
      const { body } = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: 'x' })
        .expect(200);
      gw.clock.advance(4000);
      // Done at the provider, not archived: /content streams it from the provider.
      await gw.syncTasksOnly();
      fake.inject('file', { stallAfter: 64 * 1024 }, 1);
      // The provider sends 64 KiB of the video and stalls: the client still gets those bytes at once.
      const received = await new Promise<{ status: number; length: string | undefined; bytes: number }>((resolve, reject) => {
        const req = get(`${gw.url}/v1/videos/${body.id}/content`, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes >= 64 * 1024) {
              req.destroy();
              resolve({ status: res.statusCode!, length: res.headers['content-length'], bytes });
            }
          });
        });
        req.on('error', reject);
      });
      expect(received).toEqual({ status: 200, length: String(fake.videoBytes.length), bytes: 64 * 1024 });
    });
  });

  describe('channel fallback', () => {
    let gw: TestGateway;
    let primary: AlphaEmulatorServer;
    let secondary: AlphaEmulatorServer;
    let primaryId: number;
    let secondaryId: number;

    beforeAll(async () => {
      [primary, secondary] = await Promise.all([startAlphaEmulator(), startAlphaEmulator({ apiKey: 'second-key' })]);
      gw = await startGateway(kind);
      primaryId = await gw.createChannel(alphaChannelBody(primary, { priority: 10 }));
      secondaryId = await gw.createChannel(alphaChannelBody(secondary, { priority: 0 }));
    });
    afterAll(async () => {
      await gw?.close();
      await primary?.close();
      await secondary?.close();
    });

    it.each<[string, AlphaFault]>([
      ['channel trouble (500090)', { errCode: 500090 }],
      ['back-pressure (500044)', { errCode: 500044 }],
      ['a transport error', { http: 503 }],
    ])('moves on to the next channel on %s and charges once', async (_name, fault) => {
      primary.reset();
      secondary.reset();
      primary.inject('generate', fault, 1);
      const { userId, key } = await gw.createCustomer({ quota: QUOTA });
      const { body } = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: 'x' })
        .expect(200);
      expect(primary.calls('generate')).toHaveLength(1);
      expect(secondary.calls('generate')).toHaveLength(1);
      expect(secondary.calls('generate')[0].headers['api-key']).toBe('second-key');
      expect(secondary.calls('generate')[0].headers['ai-trace-id']).not.toBe(primary.calls('generate')[0].headers['ai-trace-id']);
      expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 6000, used_quota: 6000 });
      const tasks = await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200);
      expect(tasks.body.data[0]).toMatchObject({
        task_id: body.id,
        channel_id: secondaryId,
        upstream_task_id: String([...secondary.videos.keys()][0]),
      });
      const channels = await gw.admin.get('/api/admin/channels').expect(200);
      expect(channels.body.data.find((channel: { id: number }) => channel.id === primaryId).error_count).toBeGreaterThan(0);
    });

    it('uploads the image again on the fallback channel (an img_id belongs to one provider account)', async () => {
      primary.reset();
      secondary.reset();
      primary.inject('generate', { errCode: 500090 }, 1);
      const { key } = await gw.createCustomer({ quota: QUOTA });
      const png = fakePng(100);
      await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v6', prompt: 'x', image: `data:image/png;base64,${png.toString('base64')}` })
        .expect(200);
      expect(primary.uploads).toHaveLength(1);
      expect(secondary.uploads).toHaveLength(1);
      expect(secondary.uploads[0].bytes!.equals(png)).toBe(true);
      expect(secondary.calls('generate')[0].json).toMatchObject({ img_id: secondary.uploads[0].imgId });
    });
  });
});
