import etag from 'etag';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Headers that differ between any two responses: the time, and the request id each request is given. */
const VOLATILE_HEADERS = ['date', 'x-request-id'];
/** What differs between two new tasks: their ids and creation time (and so the ETag and length of their bodies). */
const NEW_TASK_FIELDS = ['id', 'task_id', 'created_at'];

/** A plain node:http call (fetch would add headers of its own, e.g. to a conditional GET). */
function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method, headers: body === undefined ? headers : { 'Content-Length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    // A refused upload may be cut off before all of it is written (the answer still arrives).
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.end(body);
  });
}

/** What a client can compare of an answer: status, every stable header, and the body. */
function comparable(answer: Answer, volatile: string[] = []): object {
  const headers = { ...answer.headers };
  for (const name of [...VOLATILE_HEADERS, ...volatile]) delete headers[name];
  return { status: answer.status, headers, body: answer.body };
}

/** A new task's answer with its ids and time masked; its ETag (which covers them) must match its own body. */
function newTask(answer: Answer): object {
  expect(answer.headers.etag).toBe(etag(answer.body, { weak: true }));
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  for (const field of NEW_TASK_FIELDS) if (field in body) body[field] = `<${field}>`;
  return { ...comparable(answer, ['etag', 'content-length']), body };
}

/**
 * The task polls and JSON submits are served by two entries: the hot routes in front of Nest's
 * (src/http/hot-routes.ts) and, behind them, the Nest routes. A second gateway on the same database
 * with the hot routes off answers every request through Nest: each contract case must come back the
 * same from both, status, headers and body.
 */
describeOnSqlite('the hot routes and the Nest routes answer alike', (kind) => {
  let hot: TestGateway;
  let nest: TestGateway;
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  let key: string;
  let taskId: string;

  /** The same request to both gateways, one after the other. */
  const both = async (
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string | Buffer,
  ): Promise<[Answer, Answer]> => [await call(hot.url, method, path, headers, body), await call(nest.url, method, path, headers, body)];
  const expectSame = async (
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string | Buffer,
  ): Promise<Answer> => {
    const [fromHot, fromNest] = await both(method, path, headers, body);
    expect(comparable(fromHot)).toEqual(comparable(fromNest));
    return fromHot;
  };
  const auth = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${key}`, ...extra });
  const json = (extra: Record<string, string> = {}) => auth({ 'Content-Type': 'application/json', ...extra });

  beforeAll(async () => {
    alpha = await startAlphaEmulator();
    beta = await startBetaEmulator();
    hot = await startGateway(kind);
    nest = await startGateway(kind, {}, hot.database, { hotRoutes: false });
    await hot.createChannel(alphaChannelBody(alpha));
    await hot.createChannel(betaChannelBody(beta));
    key = (await hot.createCustomer({ quota: 10_000_000 })).key;
    const submitted = await call(
      hot.url,
      'POST',
      '/v1/videos',
      json(),
      JSON.stringify({ model: 'alpha/v6', prompt: 'a lighthouse', duration: 5, resolution: '720P' }),
    );
    taskId = JSON.parse(submitted.body).id;
  });
  afterAll(async () => {
    await nest?.close();
    await hot?.close();
    await alpha?.close();
    await beta?.close();
  });

  it('one gateway answers through the hot routes, the other through Nest; a HEAD goes through Nest on both', async () => {
    const hotListener = (gateway: TestGateway) =>
      gateway.app
        .getHttpServer()
        .listeners('request')
        .some((listener: { name: string }) => listener.name === 'answerHotRoutes');
    expect(hotListener(hot)).toBe(true);
    expect(hotListener(nest)).toBe(false);
    const get = await expectSame('GET', `/v1/videos/${taskId}`, auth());
    const head = await expectSame('HEAD', `/v1/videos/${taskId}`, auth());
    expect(comparable(head)).toEqual({ ...comparable(get), body: '' });
  });

  it.each([
    ['flat', (id: string) => `/v1/videos/${id}`],
    ['unified', (id: string) => `/v1/video/generations/${id}`],
  ])('%s poll: the task, 304 to a conditional GET, 404 for an unknown task, 401 without a key or with a bad one', async (_form, path) => {
    const ok = await expectSame('GET', path(taskId), auth());
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const unchanged = await expectSame('GET', path(taskId), auth({ 'If-None-Match': String(ok.headers.etag) }));
    expect(unchanged.status).toBe(304);
    expect((await expectSame('GET', `${path(taskId)}/?ignored=1`, auth())).status).toBe(200);
    expect((await expectSame('GET', path('task_unknown'), auth())).status).toBe(404);
    expect((await expectSame('GET', path(taskId))).status).toBe(401);
    expect((await expectSame('GET', path(taskId), { Authorization: 'Bearer sk-not-a-key' })).status).toBe(401);
    expect((await expectSame('GET', path('%E0%A4%A'), auth())).status).toBe(400);
  });

  it('429 past the account rate limit (users.rpm), with Retry-After', async () => {
    const limited = await hot.createCustomer({ quota: 0 });
    await hot.admin.patch(`/api/admin/users/${limited.userId}`, { rpm: 2 }).expect(200);
    const headers = { Authorization: `Bearer ${limited.key}` };
    // Each gateway counts in its own process (no REDIS_URL): the same three polls to each.
    for (let i = 0; i < 2; i++) expect((await expectSame('GET', `/v1/video/generations/${taskId}`, headers)).status).toBe(404);
    const [fromHot, fromNest] = await both('GET', `/v1/video/generations/${taskId}`, headers);
    // The seconds left in each process's own window, counted from its first poll (a few ms apart).
    expect(comparable(fromHot, ['retry-after'])).toEqual(comparable(fromNest, ['retry-after']));
    expect(fromHot.status).toBe(429);
    expect(Math.abs(Number(fromHot.headers['retry-after']) - Number(fromNest.headers['retry-after']))).toBeLessThanOrEqual(1);
    const [submitHot, submitNest] = await both(
      'POST',
      '/v1/videos',
      { ...headers, 'Content-Type': 'application/json' },
      '{"model":"alpha/v6","prompt":"p"}',
    );
    expect(comparable(submitHot, ['retry-after'])).toEqual(comparable(submitNest, ['retry-after']));
    expect(submitHot.status).toBe(429);
  });

  it.each(['/v1/videos', '/v1/video/generations'])(
    '%s submit: 400 for bad JSON, 413 past the limit, 400 naming the field, 401 without a key',
    async (path) => {
      expect((await expectSame('POST', path, json(), '{"model":')).status).toBe(400);
      expect((await expectSame('POST', path, json(), JSON.stringify({ prompt: 'x'.repeat(21 * 1024 * 1024) }))).status).toBe(413);
      expect((await expectSame('POST', path, json(), JSON.stringify({ model: 'alpha/v6' }))).status).toBe(400);
      expect(
        (await expectSame('POST', path, json(), JSON.stringify({ model: 'beta-1.0-t2v', prompt: 'p', duration: 'long' }))).status,
      ).toBe(400);
      expect((await expectSame('POST', path, json(), JSON.stringify({ model: 'no-such-model', prompt: 'p' }))).status).toBe(400);
      expect((await expectSame('POST', path, { 'Content-Type': 'application/json' }, '{"model":"alpha/v6","prompt":"p"}')).status).toBe(
        401,
      );
    },
  );

  it.each(['/v1/videos', '/v1/video/generations', '/v1/videos/quote', '/v1/video/generations/quote'])(
    '%s: the JSON body read alike (gzip, a charset, an unknown encoding, JSON too deep, a body that is no object)',
    async (path) => {
      // No prompt: read and parsed, the body is refused by the submit's rules, which name what they refuse.
      const body = JSON.stringify({ model: 'alpha/v6', duration: 5 });
      const gzipped = await expectSame('POST', path, json({ 'Content-Encoding': 'gzip' }), gzipSync(body));
      expect(gzipped.status).toBe(400);
      expect(gzipped.body).toMatch(path.startsWith('/v1/videos') ? /prompt/ : /not served on \/v1\/video\/generations/);
      const refused = [
        await expectSame('POST', path, json({ 'Content-Type': 'application/json; charset=latin1' }), body),
        await expectSame('POST', path, json({ 'Content-Encoding': 'br-unknown' }), body),
        await expectSame('POST', path, json(), `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`),
        await expectSame('POST', path, json(), '"text"'),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
      for (const answer of refused) expect(answer.body).not.toMatch(/prompt|not served/);
    },
  );

  it.each(['/v1/videos', '/v1/videos/quote', '/v1/video/generations/quote'])(
    '%s: the hot routes read what the JSON parser reads, and refuse what it refuses (its own answers, from the same bytes)',
    async (path) => {
      const fields = '"model":"alpha/v6","duration":5';
      const cases: Array<[Record<string, string>, string | Buffer]> = [
        [json(), `  \n{${fields}}`],
        [json({ 'Content-Type': 'application/json; charset=utf-8' }), `{${fields},"prompt":"a harbour \u00e9\u6e2f"}`],
        [json({ 'Content-Type': 'application/json;charset=UTF-8' }), `{${fields}}`],
        [json(), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`{${fields}}`)])],
        [json(), Buffer.concat([Buffer.from(`{${fields},"prompt":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])],
        [json(), `[{${fields}}]`],
        [json(), ''],
        [json(), '{"model":"alpha/v6","prompt":"a\u0000b"}'],
        [json(), '{"model":"alpha/v6",}'],
      ];
      const statuses: number[] = [];
      for (const [headers, body] of cases) {
        const [fromHot, fromNest] = await both('POST', path, headers, body);
        // A submit that goes through is a task of its own on each gateway: compared with its ids masked.
        const same = fromHot.status === 200 && path === '/v1/videos' ? newTask : comparable;
        expect(same(fromHot)).toEqual(same(fromNest));
        statuses.push(fromHot.status);
      }
      // Refused by the submit's rules (no prompt) or, for the one complete body, priced; never a fault.
      for (const status of statuses) expect([200, 400]).toContain(status);
      expect(statuses[1]).toBe(path === '/v1/video/generations/quote' ? 400 : 200);
    },
  );

  it.each([
    ['/v1/videos', { model: 'alpha/v6', prompt: 'a quiet harbour', duration: 5 }],
    ['/v1/video/generations', { model: 'beta-1.0-t2v', prompt: 'a quiet harbour' }],
  ])('%s submit: a new task, and an Idempotency-Key replay answers the same task', async (path, body) => {
    const [fromHot, fromNest] = await both('POST', path, json(), JSON.stringify(body));
    expect(fromHot.status).toBe(200);
    expect(newTask(fromHot)).toEqual(newTask(fromNest));
    const once = await call(hot.url, 'POST', path, json({ 'Idempotency-Key': `replay-${kind}-${path}` }), JSON.stringify(body));
    const replay = await expectSame('POST', path, json({ 'Idempotency-Key': `replay-${kind}-${path}` }), JSON.stringify(body));
    expect(JSON.parse(replay.body).id).toBe(JSON.parse(once.body).id);
  });
});
