import { GammaEmulatorServer } from './support/gamma-emulator';
import { TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

describeEachDatabase('verification access and applications', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    ({ gw, fake } = await startGatewayWithGammaEmulator(kind));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  itOnSqliteOnly(kind)('refuses every verification endpoint with 403 until an admin approved the account', async () => {
    const { key } = await gw.createCustomer();
    const auth = `Bearer ${key}`;
    const calls = [
      gw.http.post('/v1/verification/sessions').set('Authorization', auth).send({ callback_url: 'https://biz.example/cb' }),
      gw.http.get('/v1/verification/sessions/vs_x').set('Authorization', auth),
      gw.http.get('/v1/verification/groups/g1/assets').set('Authorization', auth),
      gw.http.post('/v1/verification/groups/g1/assets').set('Authorization', auth).send({ url: 'https://cdn.example/a.jpg' }),
      gw.http.get('/v1/verification/assets/a1').set('Authorization', auth),
      gw.http.delete('/v1/verification/assets/a1').set('Authorization', auth),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'forbidden',
        type: 'permission_error',
        message:
          'real-person verification is not enabled for this account: file an application at POST /v1/verification/applications and wait for approval',
      });
    }
    expect(fake.controlCalls).toHaveLength(0);
    await gw.http.post('/v1/verification/sessions').send({ callback_url: 'https://biz.example/cb' }).expect(401);
  });

  itOnSqliteOnly(kind)('documents the verification endpoints in Swagger', async () => {
    const docs = await gw.http.get('/docs-json').expect(200);
    for (const path of [
      '/v1/verification/applications',
      '/v1/verification/sessions',
      '/v1/verification/sessions/{session_id}',
      '/v1/callback',
      '/v1/verification/groups/{group_id}/assets',
      '/v1/verification/assets/{asset_id}',
      '/api/admin/verification/applications/{id}/approve',
    ]) {
      expect(docs.body.paths[path]).toBeDefined();
    }
    expect(docs.body.components.schemas.AssetDto.properties.status.enum).toEqual(['processing', 'active', 'failed']);
    expect(Object.keys(docs.body.paths).some((path) => path.startsWith('/simulator'))).toBe(false);
  });

  itOnSqliteOnly(kind)('does not mount the family C simulator with SIMULATOR=off', async () => {
    await gw.http.post('/simulator/gamma-control/?Action=CreateVisualValidateSession&Version=2024-01-01').send({}).expect(404);
    await gw.http.get('/simulator/gamma-control/h5?token=x').expect(404);
    await gw.http.get('/simulator/gamma/api/v3/contents/generations/tasks/cgt-1').set('Authorization', 'Bearer simulator-key').expect(404);
  });

  it('files an application that an admin lists and approves, which enables verification', async () => {
    const { userId, key } = await gw.createCustomer({ username: `applicant_${kind}` });
    const auth = `Bearer ${key}`;
    const bad = await gw.http
      .post('/v1/verification/applications')
      .set('Authorization', auth)
      .send({ company: 'Acme', contact: 'x' })
      .expect(400);
    expect(bad.body.error.param).toBe('use_case');

    const filed = await gw.http
      .post('/v1/verification/applications')
      .set('Authorization', auth)
      .send({ company: 'Acme Pictures', use_case: 'greeting videos of our presenters', contact: 'jane@acme.test' })
      .expect(201);
    expect(filed.body).toEqual({
      id: expect.any(Number),
      user_id: userId,
      company: 'Acme Pictures',
      use_case: 'greeting videos of our presenters',
      contact: 'jane@acme.test',
      status: 'pending',
      review_note: null,
      reviewed_at: null,
      created_at: expect.any(Number),
    });
    const again = await gw.http
      .post('/v1/verification/applications')
      .set('Authorization', auth)
      .send({ company: 'A', use_case: 'b', contact: 'c' })
      .expect(409);
    expect(again.body.error.message).toBe(`application ${filed.body.id} is already waiting for review`);

    const own = await gw.http.get('/v1/verification/applications').set('Authorization', auth).expect(200);
    expect(own.body).toEqual({ data: [filed.body], verification_enabled: false });

    await gw.http.get('/api/admin/verification/applications').expect(401);
    const pending = await gw.admin.get('/api/admin/verification/applications?status=pending').expect(200);
    expect(pending.body.data).toContainEqual({ ...filed.body, username: `applicant_${kind}` });

    const approved = await gw.admin
      .post(`/api/admin/verification/applications/${filed.body.id}/approve`, { note: 'checked by phone' })
      .expect(200);
    expect(approved.body).toMatchObject({
      id: filed.body.id,
      status: 'approved',
      review_note: 'checked by phone',
      reviewed_at: expect.any(Number),
    });
    expect((await gw.admin.get(`/api/admin/users/${userId}`).expect(200)).body.verification_enabled).toBe(true);
    await gw.admin.post(`/api/admin/verification/applications/${filed.body.id}/reject`, {}).expect(409);
    await gw.admin.post('/api/admin/verification/applications/999999/approve', {}).expect(404);

    // The API key cache does not keep the old flag: the very next request is allowed.
    const session = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', auth)
      .send({ callback_url: 'https://biz.example/cb' })
      .expect(201);
    expect(session.body.session_id).toMatch(/^vs_/);
    const after = await gw.http.get('/v1/verification/applications').set('Authorization', auth).expect(200);
    expect(after.body.verification_enabled).toBe(true);
    await gw.http
      .post('/v1/verification/applications')
      .set('Authorization', auth)
      .send({ company: 'A', use_case: 'b', contact: 'c' })
      .expect(409);
  });

  it('lets an admin reject an application, which leaves verification off', async () => {
    const { userId, key } = await gw.createCustomer();
    const auth = `Bearer ${key}`;
    const filed = await gw.http
      .post('/v1/verification/applications')
      .set('Authorization', auth)
      .send({ company: 'B', use_case: 'u', contact: 'c' })
      .expect(201);
    const rejected = await gw.admin
      .post(`/api/admin/verification/applications/${filed.body.id}/reject`, { note: 'use case unclear' })
      .expect(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', review_note: 'use case unclear' });
    await gw.admin.post(`/api/admin/verification/applications/${filed.body.id}/approve`, { colour: 'red' }).expect(400);
    expect((await gw.admin.get(`/api/admin/users/${userId}`).expect(200)).body.verification_enabled).toBe(false);
    const own = await gw.http.get('/v1/verification/applications').set('Authorization', auth).expect(200);
    expect(own.body.data[0]).toMatchObject({ status: 'rejected', review_note: 'use case unclear' });
    await gw.http.post('/v1/verification/sessions').set('Authorization', auth).send({ callback_url: 'https://biz.example/cb' }).expect(403);
    // A rejected customer may apply again.
    await gw.http
      .post('/v1/verification/applications')
      .set('Authorization', auth)
      .send({ company: 'B', use_case: 'clearer', contact: 'c' })
      .expect(201);
  });
});
