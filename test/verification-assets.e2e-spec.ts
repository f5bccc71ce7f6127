import { AssetFollowUpService } from '../src/verification/asset-follow-up.service';
import { GammaEmulatorServer } from './support/gamma-emulator';
import { verifiedCustomer } from './support/verification-customers';
import { TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

describeEachDatabase('verification assets', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    ({ gw, fake } = await startGatewayWithGammaEmulator(kind));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const as = (key: string) => ({
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${key}`).send(body),
    delete: (path: string) => gw.http.delete(path).set('Authorization', `Bearer ${key}`),
  });

  it('uploads by URL (signed CreateAsset), follows the asset to active when read, lists and deletes it', async () => {
    const { key, groupId } = await verifiedCustomer(gw, fake);
    const client = as(key);
    const before = fake.controlCalls.length;
    const created = await client
      .post(`/v1/verification/groups/${groupId}/assets`, { url: 'https://cdn.example/portraits/jane-front.jpg' })
      .expect(201);
    expect(created.body).toEqual({
      asset_id: expect.stringMatching(/^asset-\d{8}-[a-z0-9]{10}$/),
      group_id: groupId,
      name: 'jane-front',
      status: 'processing',
      error: null,
      created_at: expect.any(Number),
    });
    const assetId = created.body.asset_id;
    const [call] = fake.controlCalls.slice(before);
    expect(call).toMatchObject({
      action: 'CreateAsset',
      signatureError: null,
      body: {
        ProjectName: 'default',
        GroupId: groupId,
        URL: 'https://cdn.example/portraits/jane-front.jpg',
        AssetType: 'Image',
        Name: 'jane-front',
      },
    });

    // Still processing at the provider: reading asks again (GetAsset) and keeps it processing.
    expect((await client.get(`/v1/verification/assets/${assetId}`).expect(200)).body.status).toBe('processing');
    expect(fake.controlCalls.at(-1)).toMatchObject({ action: 'GetAsset', body: { Id: assetId }, signatureError: null });

    await fake.setAsset(assetId, 'Active');
    const active = await client.get(`/v1/verification/assets/${assetId}`).expect(200);
    expect(active.body).toEqual({ ...created.body, status: 'active' });
    // Once active it is settled: no more provider calls on read.
    const calls = fake.controlCalls.length;
    await client.get(`/v1/verification/assets/${assetId}`).expect(200);
    expect(fake.controlCalls.length).toBe(calls);

    const named = await client
      .post(`/v1/verification/groups/${groupId}/assets`, { url: 'https://cdn.example/p/2.png', name: 'side view' })
      .expect(201);
    await fake.setAsset(named.body.asset_id, 'Active');
    // The list refreshes processing assets with one ListAssets call.
    const listed = await client.get(`/v1/verification/groups/${groupId}/assets`).expect(200);
    expect(listed.body.data).toEqual([
      { ...named.body, status: 'active' },
      { ...created.body, status: 'active' },
    ]);
    expect(fake.controlCalls.at(-1)).toMatchObject({
      action: 'ListAssets',
      body: { Filter: { GroupIds: [groupId] }, PageNumber: 1, PageSize: 100 },
    });

    await client.delete(`/v1/verification/assets/${assetId}`).expect(204);
    expect(fake.controlCalls.at(-1)).toMatchObject({ action: 'DeleteAsset', body: { Id: assetId }, signatureError: null });
    expect(await fake.hasAsset(assetId)).toBe(false);
    await client.get(`/v1/verification/assets/${assetId}`).expect(404);
    expect(
      (await client.get(`/v1/verification/groups/${groupId}/assets`).expect(200)).body.data.map((a: { asset_id: string }) => a.asset_id),
    ).toEqual([named.body.asset_id]);
    // Deleting what the provider already forgot still works.
    await fake.forgetAsset(named.body.asset_id);
    await client.delete(`/v1/verification/assets/${named.body.asset_id}`).expect(204);
  });

  it('keeps groups and assets to their account: another account gets 404 and cannot upload', async () => {
    const owner = await verifiedCustomer(gw, fake);
    const stranger = await verifiedCustomer(gw, fake);
    const created = await as(owner.key)
      .post(`/v1/verification/groups/${owner.groupId}/assets`, { url: 'https://cdn.example/a.jpg' })
      .expect(201);
    const assetId = created.body.asset_id;
    const intruder = as(stranger.key);
    const calls = fake.controlCalls.length;
    expect((await intruder.get(`/v1/verification/groups/${owner.groupId}/assets`).expect(404)).body.error.message).toBe(
      `group ${owner.groupId} not found`,
    );
    await intruder.post(`/v1/verification/groups/${owner.groupId}/assets`, { url: 'https://cdn.example/b.jpg' }).expect(404);
    expect((await intruder.get(`/v1/verification/assets/${assetId}`).expect(404)).body.error.message).toBe(`asset ${assetId} not found`);
    await intruder.delete(`/v1/verification/assets/${assetId}`).expect(404);
    expect(fake.controlCalls.length).toBe(calls);
    expect(await fake.hasAsset(assetId)).toBe(true);
    await as(owner.key).get(`/v1/verification/assets/${assetId}`).expect(200);
  });

  it("records the provider's error on a failed asset, found by the scheduled follow-up", async () => {
    const { key, groupId } = await verifiedCustomer(gw, fake);
    const created = await as(key)
      .post(`/v1/verification/groups/${groupId}/assets`, { url: 'https://cdn.example/someone-else.jpg' })
      .expect(201);
    await fake.setAsset(created.body.asset_id, 'Failed', { Code: 'FaceMismatch', Message: 'the face does not match the verified person' });
    const followUp = gw.app.get(AssetFollowUpService);
    expect(await followUp.followDueAssets()).toBe(0); // not due yet
    gw.clock.advance(3_000);
    expect(await followUp.followDueAssets()).toBeGreaterThanOrEqual(1);
    const calls = fake.controlCalls.length;
    const read = await as(key).get(`/v1/verification/assets/${created.body.asset_id}`).expect(200);
    expect(read.body).toMatchObject({
      status: 'failed',
      error: { code: 'FaceMismatch', message: 'the face does not match the verified person' },
    });
    expect(fake.controlCalls.length).toBe(calls);
  });

  itOnSqliteOnly(kind)('validates uploads and maps provider refusals', async () => {
    const { key, groupId } = await verifiedCustomer(gw, fake);
    const client = as(key);
    const calls = fake.controlCalls.length;
    expect((await client.post(`/v1/verification/groups/${groupId}/assets`, {}).expect(400)).body.error.param).toBe('url');
    const notHttp = await client.post(`/v1/verification/groups/${groupId}/assets`, { url: 'file:///etc/passwd' }).expect(400);
    expect(notHttp.body.error).toMatchObject({ param: 'url', message: 'url must be an http(s) URL' });
    expect(fake.controlCalls.length).toBe(calls);

    fake.failNext('CreateAsset', 400, 'InvalidParameter.URL', 'the image cannot be downloaded');
    const refused = await client.post(`/v1/verification/groups/${groupId}/assets`, { url: 'https://cdn.example/gone.jpg' }).expect(400);
    expect(refused.body.error).toMatchObject({
      param: 'url',
      message: 'verification provider refused the request: InvalidParameter.URL: the image cannot be downloaded',
    });
    fake.failNext('CreateAsset', 503, 'ServiceUnavailable', 'try later');
    await client.post(`/v1/verification/groups/${groupId}/assets`, { url: 'https://cdn.example/a.jpg' }).expect(503);
    expect((await client.get(`/v1/verification/groups/${groupId}/assets`).expect(200)).body.data).toEqual([]);
  });
});
