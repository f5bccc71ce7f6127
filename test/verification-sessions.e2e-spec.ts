import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GammaEmulatorServer } from './support/gamma-emulator';
import { approvedCustomer } from './support/verification-customers';
import { TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

const PUBLIC_BASE_URL = 'https://gateway.example.com';

describeEachDatabase('verification sessions and callback', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    ({ gw, fake } = await startGatewayWithGammaEmulator(kind, {
      emulator: { accessKey: 'AKSESSIONS', secretKey: 'sessions-secret', region: 'cn-shanghai' },
      env: { PUBLIC_BASE_URL },
      settings: { region: 'cn-shanghai', project_name: 'portraits' },
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const createSession = async (key: string, callbackUrl = 'https://biz.example/verified?order=42') =>
    (await gw.http.post('/v1/verification/sessions').set('Authorization', `Bearer ${key}`).send({ callback_url: callbackUrl }).expect(201))
      .body as {
      session_id: string;
      provider_token: string;
      h5_link: string;
    };

  it('creates a session with a signed CreateVisualValidateSession carrying the gateway callback', async () => {
    const { key } = await approvedCustomer(gw);
    const before = fake.controlCalls.length;
    const session = await createSession(key);
    const token = fake.sessionTokens().at(-1)!;
    expect(session).toEqual({
      session_id: expect.stringMatching(/^vs_[A-Za-z0-9]{24}$/),
      provider_token: token,
      h5_link: `${fake.controlUrl}/h5?token=${token}`,
    });

    const [call] = fake.controlCalls.slice(before);
    expect(call.action).toBe('CreateVisualValidateSession');
    expect(call.signatureError).toBeNull();
    expect(call.version).toBe('2024-01-01');
    expect(call.body).toEqual({ ProjectName: 'portraits', CallbackURL: `${PUBLIC_BASE_URL}/v1/callback` });
    expect(call.request.method).toBe('POST');
    expect(call.request.wirePath).toBe('/control/');
    expect(call.request.headers['content-type']).toBe('application/json');
    expect(call.request.headers['x-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(call.request.headers.authorization).toMatch(
      /^HMAC-SHA256 Credential=AKSESSIONS\/\d{8}\/cn-shanghai\/ark\/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.stringify(call.request.headers)).not.toContain('sessions-secret');

    const read = await gw.http.get(`/v1/verification/sessions/${session.session_id}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(read.body).toEqual({
      session_id: session.session_id,
      status: 'pending',
      group_id: null,
      provider_token: `${token.slice(0, 4)}***${token.slice(-4)}`,
      result_code: null,
      expires_at: expect.any(Number),
      created_at: expect.any(Number),
    });
    expect(read.body.expires_at - read.body.created_at).toBe(120);
  });

  itOnSqliteOnly(kind)('refuses a callback_url that is not http(s) before calling the provider', async () => {
    const { key } = await approvedCustomer(gw);
    const before = fake.controlCalls.length;
    for (const callback_url of ['javascript:alert(1)', 'not a url', 'ftp://biz.example/x']) {
      const res = await gw.http.post('/v1/verification/sessions').set('Authorization', `Bearer ${key}`).send({ callback_url }).expect(400);
      expect(res.body.error).toMatchObject({ param: 'callback_url', message: 'callback_url must be an http(s) URL' });
    }
    const missing = await gw.http.post('/v1/verification/sessions').set('Authorization', `Bearer ${key}`).send({}).expect(400);
    expect(missing.body.error.param).toBe('callback_url');
    expect(fake.controlCalls.length).toBe(before);
  });

  it('redirects the callback to callback_url with its own query and the result parameters, once', async () => {
    const { key } = await approvedCustomer(gw);
    const session = await createSession(key, 'https://biz.example/verified?order=42&lang=en#done');
    const res = await gw.http
      .get('/v1/callback')
      .query({
        bytedToken: session.provider_token,
        resultCode: '10000',
        algorithmBaseRespCode: '0',
        reqMeasureInfoValue: '0.98',
        verify_type: 'real_time',
      })
      .expect(302);
    const location = new URL(res.headers.location);
    expect(`${location.origin}${location.pathname}${location.hash}`).toBe('https://biz.example/verified#done');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      order: '42',
      lang: 'en',
      providerToken: session.provider_token,
      resultCode: '10000',
      algorithmBaseRespCode: '0',
      reqMeasureInfoValue: '0.98',
      verify_type: 'real_time',
    });
    expect(res.headers['cache-control']).toBe('no-store');

    const reused = await gw.http.get('/v1/callback').query({ bytedToken: session.provider_token, resultCode: '10000' }).expect(409);
    expect(reused.headers['content-type']).toMatch(/text\/html/);
    expect(reused.text).toContain('Verification link already used');
    expect(reused.text).not.toContain(session.provider_token);

    const unknown = await gw.http.get('/v1/callback').query({ bytedToken: 'bt-never-issued', resultCode: '10000' }).expect(404);
    expect(unknown.headers['content-type']).toMatch(/text\/html/);
    expect(unknown.text).toContain('Unknown verification session');
    const missing = await gw.http.get('/v1/callback').query({ resultCode: '10000' }).expect(400);
    expect(missing.text).toContain('Incomplete verification link');

    // providerToken is accepted as the token name too.
    const other = await createSession(key, 'https://biz.example/cb');
    const alt = await gw.http
      .get('/v1/callback')
      .query({ providerToken: other.provider_token, resultCode: '10001', verify_type: 'real_time' })
      .expect(302);
    expect(new URL(alt.headers.location).searchParams.get('resultCode')).toBe('10001');
  });

  itOnSqliteOnly(kind)('masks the provider token in log lines', async () => {
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...args: unknown[]) {
        lines.push(args.map(String).join(' '));
      }),
    );
    try {
      const { key } = await approvedCustomer(gw);
      const session = await createSession(key);
      await gw.http.get('/v1/callback').query({ bytedToken: session.provider_token, resultCode: '10000' }).expect(302);
      await gw.http.get('/v1/callback').query({ bytedToken: session.provider_token, resultCode: '10000' }).expect(409);
      const masked = `${session.provider_token.slice(0, 4)}***${session.provider_token.slice(-4)}`;
      expect(lines.filter((line) => line.includes(masked)).length).toBeGreaterThanOrEqual(3);
      expect(lines.filter((line) => line.includes(session.provider_token))).toEqual([]);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });

  it('never grants a group from a forged callback; only the provider confirmation does', async () => {
    const { userId, key } = await approvedCustomer(gw);
    const auth = `Bearer ${key}`;
    const session = await createSession(key);
    // The browser (or anyone holding the token) claims success; the provider has not confirmed it.
    await gw.http
      .get('/v1/callback')
      .query({ bytedToken: session.provider_token, resultCode: '10000', verify_type: 'real_time' })
      .expect(302);
    const before = fake.controlCalls.length;
    const forged = await gw.http.get(`/v1/verification/sessions/${session.session_id}`).set('Authorization', auth).expect(200);
    expect(forged.body).toMatchObject({ status: 'pending', group_id: null, result_code: '10000' });
    const asked = fake.controlCalls.slice(before);
    expect(asked.map((c) => [c.action, c.body, c.signatureError])).toEqual([
      ['GetVisualValidateResult', { ProjectName: 'portraits', BytedToken: session.provider_token }, null],
    ]);
    expect((await gw.http.get('/v1/verification/groups').set('Authorization', auth).expect(200)).body).toEqual({ data: [] });

    // The provider confirms: now the group is the account's.
    const groupId = await fake.passSession(session.provider_token, `group-${kind}-confirmed`);
    const confirmed = await gw.http.get(`/v1/verification/sessions/${session.session_id}`).set('Authorization', auth).expect(200);
    expect(confirmed.body).toMatchObject({ status: 'succeeded', group_id: groupId });
    const groups = await gw.http.get('/v1/verification/groups').set('Authorization', auth).expect(200);
    expect(groups.body.data).toEqual([{ group_id: groupId, session_id: session.session_id, created_at: expect.any(Number) }]);
    const rows = await gw.app.get(DataSource).query('SELECT user_id FROM verification_groups WHERE group_id = ?', [groupId]);
    expect(rows.map((r: { user_id: number | string }) => Number(r.user_id))).toEqual([userId]);

    // Succeeded is final: no more provider calls, the result stays after the H5 page expired.
    const calls = fake.controlCalls.length;
    gw.clock.advance(10 * 60_000);
    const later = await gw.http.get(`/v1/verification/sessions/${session.session_id}`).set('Authorization', auth).expect(200);
    expect(later.body).toMatchObject({ status: 'succeeded', group_id: groupId });
    expect(fake.controlCalls.length).toBe(calls);
  });

  it('shows a reported failure as failed, and expires an unfinished session after about 120 s', async () => {
    const { key } = await approvedCustomer(gw);
    const auth = `Bearer ${key}`;
    const failed = await createSession(key);
    await gw.http
      .get('/v1/callback')
      .query({ bytedToken: failed.provider_token, resultCode: '10001', algorithmBaseRespCode: '2003' })
      .expect(302);
    expect((await gw.http.get(`/v1/verification/sessions/${failed.session_id}`).set('Authorization', auth).expect(200)).body).toMatchObject(
      {
        status: 'failed',
        group_id: null,
        result_code: '10001',
      },
    );

    const idle = await createSession(key);
    expect((await gw.http.get(`/v1/verification/sessions/${idle.session_id}`).set('Authorization', auth).expect(200)).body.status).toBe(
      'pending',
    );
    gw.clock.advance(121_000);
    expect((await gw.http.get(`/v1/verification/sessions/${idle.session_id}`).set('Authorization', auth).expect(200)).body).toMatchObject({
      status: 'expired',
      group_id: null,
    });
    // Past the grace period the outcome is final and the provider is no longer asked.
    gw.clock.advance(120_000);
    await gw.http.get(`/v1/verification/sessions/${idle.session_id}`).set('Authorization', auth).expect(200);
    const calls = fake.controlCalls.length;
    expect((await gw.http.get(`/v1/verification/sessions/${idle.session_id}`).set('Authorization', auth).expect(200)).body.status).toBe(
      'expired',
    );
    expect(fake.controlCalls.length).toBe(calls);
  });

  it("hides another account's session (404) and maps provider errors to clear client errors", async () => {
    const owner = await approvedCustomer(gw);
    const stranger = await approvedCustomer(gw);
    const session = await createSession(owner.key);
    const notFound = await gw.http
      .get(`/v1/verification/sessions/${session.session_id}`)
      .set('Authorization', `Bearer ${stranger.key}`)
      .expect(404);
    expect(notFound.body.error.message).toBe(`session ${session.session_id} not found`);

    fake.failNext('CreateVisualValidateSession', 429, 'RequestLimitExceeded', 'too many requests');
    const throttled = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', `Bearer ${owner.key}`)
      .send({ callback_url: 'https://biz.example/cb' })
      .expect(429);
    expect(throttled.headers['retry-after']).toBe('1');
    expect(throttled.body.error.message).toContain('verification provider rate limit reached');

    fake.failNext('CreateVisualValidateSession', 500, 'InternalError', 'boom');
    const down = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', `Bearer ${owner.key}`)
      .send({ callback_url: 'https://biz.example/cb' })
      .expect(503);
    expect(down.body.error.message).toBe('verification provider unavailable, retry later');

    fake.failNext('CreateVisualValidateSession', 400, 'InvalidParameter.CallbackURL', 'CallbackURL is not allowed');
    const refused = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', `Bearer ${owner.key}`)
      .send({ callback_url: 'https://biz.example/cb' })
      .expect(400);
    expect(refused.body.error).toMatchObject({
      message: 'verification provider refused the request: InvalidParameter.CallbackURL: CallbackURL is not allowed',
    });

    // Unwrapped results are accepted too.
    fake.unwrapped.add('CreateVisualValidateSession');
    const unwrapped = await createSession(owner.key);
    expect(unwrapped.provider_token).toMatch(/^bt-/);
    fake.unwrapped.clear();
  });

  itOnSqliteOnly(kind)('answers 503 (not the caller’s fault) when the provider refuses the signature', async () => {
    const { gw: gw2, fake: other } = await startGatewayWithGammaEmulator(kind, {
      emulator: { accessKey: 'AKOTHER', secretKey: 'the-real-secret' },
      settings: { secret_key: 'a-wrong-secret' },
    });
    try {
      const { key } = await approvedCustomer(gw2);
      const res = await gw2.http
        .post('/v1/verification/sessions')
        .set('Authorization', `Bearer ${key}`)
        .send({ callback_url: 'https://biz.example/cb' })
        .expect(503);
      expect(res.body.error.message).toBe('verification provider refused the gateway (channel configuration problem), retry later');
      expect(other.controlCalls[0].signatureError).toBe('signature mismatch');
      expect(JSON.stringify(res.body)).not.toContain('secret');
    } finally {
      await gw2.close();
      await other.close();
    }
  });
});
