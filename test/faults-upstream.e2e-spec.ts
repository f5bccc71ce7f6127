import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { IdentifierCollation1764000000100 } from '../src/database/migrations/1764000000100-identifier-collation';
import { ChannelsService } from '../src/upstream/channels.service';
import { alphaChannelBody, ALPHA_MODEL_IDS, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BETA_MODEL_IDS, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { binaryBody } from './support/binary-body';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { approvedCustomer } from './support/verification-customers';
import { startGateway, TestGateway } from './support/gateway';

/** The gateway's own signed content link of a task (what `metadata.url` and `result_url` show). */
const signedLink = (base: string, taskId: string) =>
  expect.stringMatching(new RegExp(`^${base}/v1/videos/${taskId}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`));
import { describeEachDatabase, describeOnSqlite, queryDatabase } from './support/test-databases';

/** An address inside the provider's network, and the stack text a careless provider sends along. */
const INTERNAL_HOST = '10.9.8.7';
const INTERNAL_URL = `http://${INTERNAL_HOST}:8080/internal/v2/generate`;
const STACK = 'at Handler.run (/srv/provider/app.js:10:5)';
/** A provider message that echoes the caller's key, an internal URL and stack text. */
const leaky = (secret: string) => `refused for key ${secret} by ${INTERNAL_URL}\n    ${STACK}`;
const MB = 1024 * 1024;
const QUOTA = 10_000_000;

/** Nothing of what a leaky provider said: no key, no internal address, no stack text. */
function expectClean(text: string, ...secrets: string[]): void {
  for (const needle of [...secrets, INTERNAL_HOST, '/srv/provider', 'Handler.run']) expect(text).not.toContain(needle);
}

/** Everything the gateway logged: Nest's logger writes to console when TEST_LOGS is set, the request log (pino) to stdout. */
function captureLogs(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const spies = (['log', 'warn', 'error', 'debug', 'info'] as const).map((method) =>
    jest
      .spyOn(console, method)
      .mockImplementation(
        (...args: unknown[]) => void lines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ')),
      ),
  );
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0);
  return { lines, restore: () => [...spies, stdout].forEach((spy) => spy.mockRestore()) };
}

/** How provider text and links reach clients does not depend on the database: SQLite only. */
describeOnSqlite('faults: what providers say and link', (kind) => {
  describe('provider text is mapped, never echoed (client, log, last_error)', () => {
    let gw: TestGateway;
    let alpha: AlphaEmulatorServer;
    let beta: BetaEmulatorServer;
    let gamma: GammaEmulatorServer;
    let logs: ReturnType<typeof captureLogs>;
    const ids: Record<'alpha' | 'beta' | 'gamma', number> = { alpha: 0, beta: 0, gamma: 0 };
    let customer: { userId: number; key: string };
    const as = (test: Test) => test.set('Authorization', `Bearer ${customer.key}`);

    beforeAll(async () => {
      [alpha, beta, gamma] = await Promise.all([startAlphaEmulator(), startBetaEmulator(), startGammaEmulator()]);
      logs = captureLogs();
      const previous = process.env.TEST_LOGS;
      process.env.TEST_LOGS = '1';
      try {
        gw = await startGateway(kind, { LOG_LEVEL: 'debug' });
      } finally {
        if (previous === undefined) delete process.env.TEST_LOGS;
        else process.env.TEST_LOGS = previous;
      }
      gamma.now = () => gw.clock.now();
      ids.alpha = await gw.createChannel(alphaChannelBody(alpha));
      ids.beta = await gw.createChannel(betaChannelBody(beta));
      ids.gamma = await gw.createChannel(gamma.channelBody());
      customer = await gw.createCustomer({ quota: QUOTA });
    });
    afterAll(async () => {
      logs?.restore();
      await gw?.close();
      await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
    });

    const lastError = async (channelId: number) =>
      (await queryDatabase<{ last_error: string | null }>(gw.database, `SELECT last_error FROM channels WHERE id = ${channelId}`))[0]
        .last_error;
    const failReasons = async () =>
      (await queryDatabase<{ fail_reason: string | null }>(gw.database, `SELECT fail_reason FROM tasks`)).map(
        (row) => row.fail_reason ?? '',
      );
    const ledger = async () =>
      JSON.stringify((await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&page_size=100`).expect(200)).body);

    it('family A: a refusal echoing the key and an internal URL is a 400 with the mapped reason of its ErrCode', async () => {
      alpha.inject('generate', { errCode: 400011, message: leaky(alpha.apiKey) }, 1);
      const res = await as(gw.http.post('/v1/videos')).send({ model: 'alpha/v6', prompt: 'a cat' }).expect(400);
      expect(res.body.error).toMatchObject({ message: 'upstream rejected the request: ErrCode 400011: invalid parameter' });
      expectClean(JSON.stringify(res.body), alpha.apiKey);
      expectClean((await failReasons()).join('\n'), alpha.apiKey);
      expectClean(await ledger(), alpha.apiKey);
      expect(logs.lines.some((line) => /submit of task_\w+ on channel \d+ failed \(invalid_input\)/.test(line))).toBe(true);
      expectClean(logs.lines.join('\n'), alpha.apiKey);
    });

    it('family A: a channel problem echoing the key leaves a mapped last_error and a clean log', async () => {
      alpha.inject('generate', { errCode: 500090, message: leaky(alpha.apiKey) }, 1);
      const res = await as(gw.http.post('/v1/videos')).send({ model: 'alpha/v6', prompt: 'a cat' }).expect(503);
      expectClean(JSON.stringify(res.body), alpha.apiKey);
      expect(await lastError(ids.alpha)).toBe('channel: ErrCode 500090: insufficient balance on the provider account');
      const view = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.find(
        (channel: { id: number }) => channel.id === ids.alpha,
      );
      expect(view.last_error).toBe('channel: ErrCode 500090: insufficient balance on the provider account');
      expectClean(logs.lines.join('\n'), alpha.apiKey);
    });

    it('family B: refusals are mapped by their documented code; unknown or odd codes get a generic summary', async () => {
      const refusal = async (code: string, expected: string) => {
        beta.failNextSubmit({ status: 400, code, message: leaky(beta.apiKey) });
        const res = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(400);
        expect(res.body).toEqual({ code: 'invalid_request', message: `upstream rejected the request: ${expected}`, data: null });
      };
      await refusal('InvalidParameter', 'InvalidParameter: invalid parameter');
      await refusal('DataInspectionFailed', 'content moderation failed: DataInspectionFailed: the input may contain inappropriate content');
      await refusal('InvalidParameter.NewRule', 'InvalidParameter.NewRule: invalid parameter');
      await refusal('BrandNewCode', 'BrandNewCode: the provider refused the input');
      await refusal(`key ${beta.apiKey} at ${INTERNAL_URL}`, 'the provider refused the input (HTTP 400)');
      await refusal(beta.apiKey, 'the provider refused the input (HTTP 400)');
      expectClean((await failReasons()).join('\n'), beta.apiKey);
      expectClean(await ledger(), beta.apiKey);
      expectClean(logs.lines.join('\n'), beta.apiKey);
    });

    it('family B: an auth refusal echoing the key is a 503 with a mapped last_error', async () => {
      beta.failNextSubmit({ status: 401, code: 'InvalidApiKey', message: `Invalid API-key provided: ${beta.apiKey} (${INTERNAL_URL})` });
      const res = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(503);
      expectClean(JSON.stringify(res.body), beta.apiKey);
      expect(await lastError(ids.beta)).toBe('channel: InvalidApiKey: the provider refused the API key');
      expectClean(logs.lines.join('\n'), beta.apiKey);
    });

    it('family B: transport trouble names no address in last_error or the log', async () => {
      const unreachable = await gw.app.get(ChannelsService).create(
        {
          name: 'dead',
          platform: 'beta',
          baseUrl: `http://${INTERNAL_HOST.replace(/^10\./, '127.')}:9`,
          apiKey: 'k',
          models: BETA_MODEL_IDS,
          priority: 100,
        },
        true,
      );
      try {
        beta.failNextSubmit({ status: 500, code: 'InternalError', message: leaky(beta.apiKey) });
        await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(503);
        const reason = await lastError(unreachable.id);
        expect(reason).toMatch(/^transient: family B provider unreachable \((ECONNREFUSED|timeout)\)$/);
        expect(reason).not.toContain('127.9.8.7');
        expect(await lastError(ids.beta)).toBe('transient: InternalError: provider internal error');
        expect(logs.lines.join('\n')).not.toContain('127.9.8.7');
      } finally {
        await gw.admin.patch(`/api/admin/channels/${unreachable.id}`, { status: 'disabled' }).expect(200);
      }
    });

    it('family B: a failed task shows a mapped reason, and data.data keeps the code but not the message', async () => {
      beta.scriptNext([{ status: 'FAILED', code: 'InternalError.Algo', message: leaky(beta.apiKey) }]);
      const { body } = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(200);
      gw.clock.advance(10_000);
      await gw.sync();
      const unified = (await as(gw.http.get(`/v1/video/generations/${body.id}`)).expect(200)).body;
      expect(unified.data).toMatchObject({
        status: 'FAILURE',
        fail_reason: 'generation failed: InternalError.Algo: provider internal error',
      });
      expect(unified.data.data.output).toMatchObject({ task_status: 'FAILED', code: 'InternalError.Algo' });
      expect(unified.data.data.output).not.toHaveProperty('message');
      const flat = (await as(gw.http.get(`/v1/videos/${body.id}`)).expect(200)).body;
      expectClean(JSON.stringify(unified) + JSON.stringify(flat), beta.apiKey);
      expectClean(await ledger(), beta.apiKey);
    });

    it('family C: refusals and failures are mapped by code, on the data plane and the control plane', async () => {
      gamma.failNext('submit', 400, 'InvalidParameter', leaky(gamma.apiKey));
      const refused = await as(gw.http.post('/v1/video/generations'))
        .send({ model: 'gamma-2-0', prompt: 'p', metadata: { resolution: '480p' } })
        .expect(400);
      expect(refused.body.message).toBe('upstream rejected the request: InvalidParameter: invalid parameter');

      const { body } = await as(gw.http.post('/v1/video/generations'))
        .send({ model: 'gamma-2-0', prompt: 'p', metadata: { resolution: '480p' } })
        .expect(200);
      await gamma.setTask(gamma.taskIds().at(-1)!, {
        status: 'failed',
        error: { code: 'InternalServiceError', message: leaky(gamma.apiKey) },
      });
      gw.clock.advance(10_000);
      await gw.sync();
      const unified = (await as(gw.http.get(`/v1/video/generations/${body.id}`)).expect(200)).body;
      expect(unified.data).toMatchObject({
        status: 'FAILURE',
        fail_reason: 'generation failed: InternalServiceError: provider internal error',
      });
      expect(unified.data.data.error).toEqual({ code: 'InternalServiceError' });
      expectClean(JSON.stringify(unified) + JSON.stringify(refused.body), gamma.apiKey);

      const verified = await approvedCustomer(gw);
      const session = () =>
        gw.http
          .post('/v1/verification/sessions')
          .set('Authorization', `Bearer ${verified.key}`)
          .send({ callback_url: 'https://biz.example/cb' });
      gamma.failNext('CreateVisualValidateSession', 400, 'InvalidParameter.CallbackURL', leaky(gamma.secretKey));
      const control = await session().expect(400);
      expect(control.body.error.message).toBe(
        'verification provider refused the request: InvalidParameter.CallbackURL: CallbackURL is not allowed',
      );
      gamma.failNext('CreateVisualValidateSession', 429, 'RequestLimitExceeded', leaky(gamma.secretKey));
      const throttled = await session().expect(429);
      gamma.failNext('CreateVisualValidateSession', 401, 'SignatureDoesNotMatch', leaky(gamma.secretKey));
      await session().expect(503);
      gamma.h5LinkFor = () => 'file:///etc/passwd';
      const noLink = await session().expect(503);
      gamma.h5LinkFor = null;
      expect(noLink.body.error.message).toBe('verification provider answered without a token or H5 link, retry later');
      expectClean(JSON.stringify([control.body, throttled.body, noLink.body]), gamma.secretKey, gamma.accessKey);
      expect(JSON.stringify(noLink.body)).not.toContain('file:');
      expectClean(logs.lines.join('\n'), gamma.apiKey, gamma.secretKey);
      expect(logs.lines.some((line) => line.includes('SignatureDoesNotMatch'))).toBe(true);
    });
  });

  describe('result URLs shown to clients are public http(s) links (MEDIA_ALLOW_PRIVATE_HOSTS=false)', () => {
    let gw: TestGateway;
    let alpha: AlphaEmulatorServer;
    let beta: BetaEmulatorServer;
    let gamma: GammaEmulatorServer;
    let customer: { userId: number; key: string };
    const as = (test: Test) => test.set('Authorization', `Bearer ${customer.key}`);

    beforeAll(async () => {
      [alpha, beta, gamma] = await Promise.all([startAlphaEmulator(), startBetaEmulator(), startGammaEmulator()]);
      // No store: a task completes with its provider's done (a link nobody can fetch would keep it archiving), and /content proxies the provider.
      gw = await startGateway(kind, { MEDIA_ALLOW_PRIVATE_HOSTS: 'false', VIDEO_STORE: 'none' });
      const channels = gw.app.get(ChannelsService);
      // Trusted (as the gateway's own channels are): the fakes live on loopback, the policy under test is for the links they hand out.
      await channels.create({ name: 'a', platform: 'alpha', baseUrl: alpha.url, apiKey: alpha.apiKey, models: ALPHA_MODEL_IDS }, true);
      await channels.create({ name: 'b', platform: 'beta', baseUrl: beta.url, apiKey: beta.apiKey, models: BETA_MODEL_IDS }, true);
      await channels.create({ name: 'c', platform: 'gamma', baseUrl: gamma.url, apiKey: gamma.apiKey, models: ['gamma-2-0'] }, true);
      customer = await gw.createCustomer({ quota: QUOTA });
    });
    afterAll(async () => {
      await gw?.close();
      await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
    });

    const succeededWith = (videoUrl: string) => ({
      http: 200,
      body: {
        request_id: 'r',
        output: { task_id: 'u', task_status: 'SUCCEEDED', video_url: videoUrl, orig_prompt: 'p' },
        usage: { duration: 5, SR: 720 },
      },
    });
    const views = async (taskId: string) => ({
      unified: (await as(gw.http.get(`/v1/video/generations/${taskId}`)).expect(200)).body,
      flat: (await as(gw.http.get(`/v1/videos/${taskId}`)).expect(200)).body,
      row: (await queryDatabase<{ result_url: string | null }>(gw.database, `SELECT result_url FROM tasks WHERE task_id = '${taskId}'`))[0],
    });

    it.each([
      ['file:///etc/passwd', 'file:'],
      ['http://169.254.169.254/latest/meta-data/iam/', '169.254'],
      ['http://[::ffff:169.254.169.254]/latest/', '169.254'],
      ['http://[::a9fe:a9fe]/latest/', 'a9fe'],
      ['http://10.0.0.8/video.mp4', '10.0.0.8'],
      ['http://localhost:8080/video.mp4', 'localhost'],
      ['ftp://cdn.example.com/video.mp4', 'ftp:'],
      ['https://user:pass@cdn.example.com/video.mp4', 'user:pass'],
    ])('family B: a succeeded task whose link is %s fails, is refunded, and shows no link', async (videoUrl, needle) => {
      const before = await gw.balance(customer.userId);
      beta.scriptNext([succeededWith(videoUrl)]);
      const { body } = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(200);
      gw.clock.advance(10_000);
      await gw.sync();
      const { unified, flat, row } = await views(body.id);
      expect(unified.data).toMatchObject({ status: 'FAILURE', result_url: '' });
      expect(flat).toMatchObject({ status: 'failed' });
      expect(flat.metadata).toBeUndefined();
      expect(row.result_url).toBeNull();
      expect(JSON.stringify([unified, flat])).not.toContain(needle);
      expect(await gw.balance(customer.userId)).toEqual(before);
    });

    it("family B: a public https link is kept in the task's record only; clients, the raw upstream record included, get the gateway's signed link", async () => {
      const link = 'https://cdn.example.com/videos/1.mp4?Expires=1&Signature=abc';
      beta.scriptNext([succeededWith(link)]);
      const { body } = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(200);
      gw.clock.advance(10_000);
      await gw.sync();
      const { unified, flat, row } = await views(body.id);
      expect(unified.data).toMatchObject({ status: 'SUCCESS', result_url: signedLink(gw.url, body.id) });
      expect(unified.data.data.output.video_url).toEqual(signedLink(gw.url, body.id));
      expect(JSON.stringify([unified, flat])).not.toContain('cdn.example.com');
      expect(flat).toMatchObject({ status: 'completed', metadata: { url: signedLink(gw.url, body.id) } });
      expect(row.result_url).toBe(link);
    });

    it("family A: a file:// link is never shown; the provider's own host (the channel's) is", async () => {
      alpha.videoUrlFor = () => 'file:///etc/passwd';
      const { body } = await as(gw.http.post('/v1/videos')).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
      await alpha.setScript(Math.max(...alpha.videos.keys()), [1]);
      gw.clock.advance(5_000);
      await gw.sync();
      const { flat, row } = await views(body.id);
      expect(flat.status).not.toBe('completed');
      expect(JSON.stringify(flat)).not.toContain('file:');
      expect(row.result_url).toBeNull();
      expect(
        JSON.stringify(await queryDatabase(gw.database, `SELECT upstream_response FROM tasks WHERE task_id = '${body.id}'`)),
      ).not.toContain('file:');

      alpha.videoUrlFor = null;
      gw.clock.advance(6 * 60_000);
      await gw.sync();
      const done = await views(body.id);
      expect(done.flat).toMatchObject({ status: 'completed', metadata: { url: signedLink(gw.url, body.id) } });
      expect(done.row.result_url).toMatch(new RegExp(`^${alpha.url}/files/`));
      expect((await as(gw.http.get(`/v1/videos/${body.id}/content`)).expect(200)).headers['content-type']).toBe('video/mp4');
    });

    it('family C: a link-local link fails the task', async () => {
      const { body } = await as(gw.http.post('/v1/video/generations'))
        .send({ model: 'gamma-2-0', prompt: 'p', metadata: { resolution: '480p' } })
        .expect(200);
      await gamma.setTask(gamma.taskIds().at(-1)!, { status: 'succeeded', videoUrl: 'http://169.254.169.254/latest/meta-data/' });
      gw.clock.advance(10_000);
      await gw.sync();
      const { unified, flat } = await views(body.id);
      expect(unified.data).toMatchObject({ status: 'FAILURE', result_url: '' });
      expect(JSON.stringify([unified, flat])).not.toContain('169.254');
    });

    it('a stored link that is not public (kept before this rule) is not shown, and /content does not fetch it', async () => {
      beta.scriptNext(['SUCCEEDED']);
      const { body } = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt: 'p' }).expect(200);
      gw.clock.advance(10_000);
      await gw.sync();
      const metadataUrl = 'http://169.254.169.254/latest/meta-data/';
      const response = JSON.stringify({ request_id: 'r', output: { task_id: 'u', task_status: 'SUCCEEDED', video_url: metadataUrl } });
      await gw.app
        .get(DataSource)
        .query('UPDATE tasks SET result_url = ?, upstream_response = ? WHERE task_id = ?', [metadataUrl, response, body.id]);
      const { unified, flat } = await views(body.id);
      expect(unified.data).toMatchObject({ status: 'SUCCESS', result_url: signedLink(gw.url, body.id) });
      expect(flat.metadata).toEqual({ url: signedLink(gw.url, body.id) });
      expect(JSON.stringify([unified, flat])).not.toContain('169.254');
      // /content skips it and asks the provider for a fresh link (on the provider's own host).
      const content = await as(gw.http.get(`/v1/videos/${body.id}/content`))
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect((content.body as Buffer).equals(beta.videoBytes)).toBe(true);
      expect((await views(body.id)).row.result_url).toContain(beta.url);
    });
  });
});

/** What is stored (capped provider bodies, identifier collations) is the database's business: each database. */
describeEachDatabase('faults: what providers send, as stored', (kind) => {
  describe('provider bodies are capped when read and trimmed when stored', () => {
    let gw: TestGateway;
    let alpha: AlphaEmulatorServer;
    let beta: BetaEmulatorServer;
    let customer: { userId: number; key: string };
    const as = (test: Test) => test.set('Authorization', `Bearer ${customer.key}`);
    /** A JSON body of about 60 MB whose envelope is valid: a provider gone mad, or a hostile one. */
    const huge = (prefix: string, suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.alloc(60 * MB, 'a'), Buffer.from(suffix)]);

    beforeAll(async () => {
      [alpha, beta] = await Promise.all([startAlphaEmulator(), startBetaEmulator()]);
      gw = await startGateway(kind);
      await gw.createChannel(alphaChannelBody(alpha));
      await gw.createChannel(betaChannelBody(beta));
      customer = await gw.createCustomer({ quota: QUOTA });
    });
    afterAll(async () => {
      await gw?.close();
      await Promise.all([alpha?.close(), beta?.close()]);
    });

    const stored = async (taskId: string) =>
      (
        await queryDatabase<{ size: number | string | null; poll_failures: number | string; status: string }>(
          gw.database,
          `SELECT LENGTH(upstream_response) AS size, poll_failures, status FROM tasks WHERE task_id = '${taskId}'`,
        )
      )[0];

    it('family A: a 60 MB answer is a transient poll failure, read no further than the cap and never stored', async () => {
      alpha.scriptNext([1]);
      const { body } = await as(gw.http.post('/v1/videos')).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
      alpha.inject('result', { raw: huge('{"ErrCode":0,"ErrMsg":"success","Resp":{"id":1,"status":5,"pad":"', '"}}') }, 2);
      const rss = process.memoryUsage().rss;
      gw.clock.advance(5_000);
      await gw.sync();
      const grown = (process.memoryUsage().rss - rss) / MB;
      const row = await stored(body.id);
      expect(Number(row.size ?? 0)).toBeLessThan(16 * 1024);
      expect(Number(row.poll_failures)).toBe(1);
      expect(grown).toBeLessThan(150);
      alpha.clearFaults();
      gw.clock.advance(6 * 60_000);
      await gw.sync();
      expect((await as(gw.http.get(`/v1/videos/${body.id}`)).expect(200)).body.status).toBe('completed');
      expect(Number((await stored(body.id)).size)).toBeLessThan(4 * 1024);
    });

    it('family B: a 60 MB answer is a transient poll failure; a 300 KB one is kept trimmed to its known fields', async () => {
      const prompt = 'p'.repeat(100);
      beta.scriptNext([
        { http: 200, raw: huge('{"request_id":"r","output":{"task_status":"RUNNING","pad":"', '"}}') },
        {
          http: 200,
          body: {
            request_id: 'r2',
            output: { task_id: 'u', task_status: 'RUNNING', junk: 'j'.repeat(300_000), orig_prompt: 'o'.repeat(200_000) },
            extra: { deep: ['x'.repeat(1000)] },
          },
        },
        'SUCCEEDED',
      ]);
      const { body } = await as(gw.http.post('/v1/video/generations')).send({ model: 'beta-1.0-t2v', prompt }).expect(200);
      gw.clock.advance(10_000);
      await gw.sync();
      expect(Number((await stored(body.id)).poll_failures)).toBe(1);
      expect(Number((await stored(body.id)).size ?? 0)).toBeLessThan(16 * 1024);

      gw.clock.advance(60_000);
      await gw.sync();
      const running = await stored(body.id);
      expect(running.status).toBe('IN_PROGRESS');
      expect(Number(running.size)).toBeLessThan(16 * 1024);
      const unified = (await as(gw.http.get(`/v1/video/generations/${body.id}`)).expect(200)).body.data;
      expect(unified.data.request_id).toBe('r2');
      expect(unified.data.output).toMatchObject({ task_id: 'u', task_status: 'RUNNING' });
      expect(unified.data.output).not.toHaveProperty('junk');
      expect(unified.data).not.toHaveProperty('extra');

      gw.clock.advance(10_000);
      await gw.sync();
      const done = (await as(gw.http.get(`/v1/video/generations/${body.id}`)).expect(200)).body.data;
      expect(done).toMatchObject({ status: 'SUCCESS', result_url: signedLink(gw.url, body.id) });
      expect(done.data.output).toMatchObject({
        task_status: 'SUCCEEDED',
        orig_prompt: prompt,
        // The provider's link never reaches a client: the raw record shows the gateway's own.
        video_url: signedLink(gw.url, body.id),
      });
    });
  });

  describe('identifiers compare byte for byte', () => {
    let gw: TestGateway;
    let alpha: AlphaEmulatorServer;
    let customer: { userId: number; key: string };
    const as = (test: Test) => test.set('Authorization', `Bearer ${customer.key}`);

    beforeAll(async () => {
      alpha = await startAlphaEmulator();
      gw = await startGateway(kind);
      await gw.createChannel(alphaChannelBody(alpha));
      customer = await gw.createCustomer({ quota: QUOTA });
    });
    afterAll(async () => {
      await gw?.close();
      await alpha?.close();
    });

    // Runs first: going down must fail once keys exist that differ only in case (they would collide again).
    it('the collation migration goes down and up again, keeping types, nullability and unique keys (a no-op on SQLite)', async () => {
      const runner = gw.app.get(DataSource).createQueryRunner();
      const migration = new IdentifierCollation1764000000100();
      const columns = () =>
        queryDatabase<{ column_name: string; column_type: string; is_nullable: string; collation_name: string }>(
          gw.database,
          `SELECT COLUMN_NAME AS column_name, COLUMN_TYPE AS column_type, IS_NULLABLE AS is_nullable, COLLATION_NAME AS collation_name FROM information_schema.COLUMNS
           WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'tasks' AND COLUMN_NAME IN ('task_id', 'idempotency_key') ORDER BY COLUMN_NAME`,
        );
      try {
        await migration.down(runner);
        if (kind === 'mysql')
          expect((await columns()).map((column) => column.collation_name)).toEqual([
            expect.stringMatching(/_ci$/),
            expect.stringMatching(/_ci$/),
          ]);
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      if (kind === 'mysql') {
        expect(await columns()).toEqual([
          { column_name: 'idempotency_key', column_type: 'varchar(255)', is_nullable: 'YES', collation_name: 'utf8mb4_nopad_bin' },
          { column_name: 'task_id', column_type: 'varchar(64)', is_nullable: 'NO', collation_name: 'utf8mb4_nopad_bin' },
        ]);
        const unique = await queryDatabase<{ Key_name: string }>(gw.database, 'SHOW INDEX FROM tasks WHERE Non_unique = 0');
        expect(unique.map((index) => index.Key_name)).toEqual(expect.arrayContaining(['uq_tasks_task_id', 'uq_tasks_idempotency']));
      }
      // Still one task per key, the same key twice included.
      const body = { model: 'alpha/v5', prompt: 'after the migration' };
      const first = await as(gw.http.post('/v1/videos')).set('Idempotency-Key', 'After-1').send(body).expect(200);
      expect((await as(gw.http.post('/v1/videos')).set('Idempotency-Key', 'After-1').send(body).expect(200)).body.id).toBe(first.body.id);
    });

    it('an Idempotency-Key differing only in case is another key', async () => {
      const body = { model: 'alpha/v5', prompt: 'same body' };
      const first = await as(gw.http.post('/v1/videos')).set('Idempotency-Key', 'Order-ABC-1').send(body).expect(200);
      const again = await as(gw.http.post('/v1/videos')).set('Idempotency-Key', 'Order-ABC-1').send(body).expect(200);
      const other = await as(gw.http.post('/v1/videos')).set('Idempotency-Key', 'order-abc-1').send(body).expect(200);
      expect(again.body.id).toBe(first.body.id);
      expect(other.body.id).not.toBe(first.body.id);
    });

    it('a task id differing in case or by a trailing space is not found', async () => {
      const { body } = await as(gw.http.post('/v1/videos')).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
      const id: string = body.id;
      const flipped = `task_${[...id.slice(5)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')}`;
      expect(flipped).not.toBe(id);
      await as(gw.http.get(`/v1/videos/${id}`)).expect(200);
      await as(gw.http.get(`/v1/videos/${flipped}`)).expect(404);
      await as(gw.http.get(`/v1/videos/${id}%20`)).expect(404);
      await as(gw.http.get(`/v1/video/generations/${flipped}`)).expect(404);
    });

    it('every identifier column has a binary, no-pad collation (MySQL/MariaDB; SQLite compares bytes already)', async () => {
      if (kind !== 'mysql') return;
      const rows = await queryDatabase<{ table_name: string; column_name: string; collation_name: string }>(
        gw.database,
        `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, COLLATION_NAME AS collation_name FROM information_schema.COLUMNS
         WHERE TABLE_SCHEMA = DATABASE() AND COLUMN_NAME IN ('task_id', 'idempotency_key', 'upstream_task_id', 'key_hash', 'token_hash', 'session_id', 'provider_token', 'group_id', 'asset_id', 'request_hash', 'lease_owner')`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(14);
      for (const row of rows)
        expect(`${row.table_name}.${row.column_name} ${row.collation_name}`).toMatch(/ utf8mb4_(nopad_bin|0900_bin)$/);
    });
  });
});
