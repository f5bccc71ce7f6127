import request from 'supertest';
import { DataSource } from 'typeorm';
import { GammaEmulatorServer } from './support/gamma-emulator';
import { verifiedCustomer } from './support/verification-customers';
import { TestGateway } from './support/gateway';
import { startGatewayWithGammaEmulator } from './support/gateway-with-gamma-emulator';
import { describeOnSqlite } from './support/test-databases';

/** PNG magic bytes and a little body: what the gateway recognizes as a PNG portrait. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('portrait-bytes-'.repeat(50))]);

/** The console's portrait upload by file: stored on the gateway, handed to the provider as a signed link on its own host. */
describeOnSqlite('console portrait upload by file', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    ({ gw, fake } = await startGatewayWithGammaEmulator(kind));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  /** A verified customer signed in to the console. */
  async function consoleCustomer() {
    const customer = await verifiedCustomer(gw, fake);
    await gw.admin.patch(`/api/admin/users/${customer.userId}`, { password: 'pass-word-1' }).expect(200);
    const username = (await gw.admin.get(`/api/admin/users/${customer.userId}`).expect(200)).body.username;
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
    const post = (path: string) => gw.http.post(path).set('Cookie', cookie).set('X-CSRF-Token', session.body.csrf_token);
    return { ...customer, post, get: (path: string) => gw.http.get(path).set('Cookie', cookie) };
  }

  const uploads = async () => Number((await gw.app.get(DataSource).query('SELECT COUNT(*) AS n FROM portrait_uploads'))[0].n);

  it('takes a portrait file, gives the provider a signed link on the gateway that serves the same bytes, and follows the asset', async () => {
    const me = await consoleCustomer();
    const before = fake.controlCalls.length;
    const created = await me
      .post(`/console/api/verification/groups/${me.groupId}/assets`)
      .attach('file', PNG, 'jane-front.png')
      .expect(201);
    expect(created.body).toEqual({
      asset_id: expect.any(String),
      group_id: me.groupId,
      name: 'jane-front',
      status: 'processing',
      error: null,
      created_at: expect.any(Number),
    });
    const [call] = fake.controlCalls.slice(before);
    expect(call).toMatchObject({
      action: 'CreateAsset',
      signatureError: null,
      body: { GroupId: me.groupId, AssetType: 'Image', Name: 'jane-front' },
    });
    const link = String(call.body.URL);
    expect(link.startsWith(`${gw.url}/media/portraits/pu_`)).toBe(true);

    // What the provider fetches: the very bytes, no credentials but the link.
    const path = link.slice(gw.url.length);
    const fetched = await gw.http.get(path).buffer(true).parse(binary).expect(200).expect('content-type', 'image/png');
    expect(Buffer.compare(fetched.body, PNG)).toBe(0);
    await gw.http.get(path.replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === '0' ? '1' : '0'}`)).expect(403);
    await gw.http.get(path.split('?')[0]).expect(403);

    // The asset's status is live: the provider settles it, the console's list shows it.
    await fake.setAsset(created.body.asset_id, 'Active');
    const listed = await me.get(`/console/api/verification/groups/${me.groupId}/assets`).expect(200);
    expect(listed.body.data).toEqual([{ ...created.body, status: 'active' }]);

    // A URL still works, as a JSON body or as a form field with a name.
    await me.post(`/console/api/verification/groups/${me.groupId}/assets`).send({ url: 'https://cdn.example/p/side.jpg' }).expect(201);
    const named = await me
      .post(`/console/api/verification/groups/${me.groupId}/assets`)
      .field('url', 'https://cdn.example/p/3.jpg')
      .field('name', 'three')
      .expect(201);
    expect(named.body.name).toBe('three');

    // A day later the link has expired.
    gw.clock.advance(25 * 3600_000);
    await gw.http.get(path).expect(403);
  });

  it('refuses what is no portrait, neither or both of url and file, too large a file, and a group of another account', async () => {
    const me = await consoleCustomer();
    const stored = await uploads();
    const path = `/console/api/verification/groups/${me.groupId}/assets`;
    const notImage = await me.post(path).attach('file', Buffer.from('<html>not an image</html>'), 'x.png').expect(400);
    expect(notImage.body.error).toMatchObject({ param: 'file', message: expect.stringMatching(/JPEG, PNG or WebP/) });
    expect((await me.post(path).send({}).expect(400)).body.error.param).toBe('url');
    const both = await me.post(path).field('url', 'https://cdn.example/a.jpg').attach('file', PNG, 'a.png').expect(400);
    expect(both.body.error.param).toBe('file');
    await me
      .post(path)
      .attach('file', Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), 'big.png')
      .expect(413);
    const other = await consoleCustomer();
    await other.post(path).attach('file', PNG, 'intruder.png').expect(404);
    expect(await uploads()).toBe(stored);
  });
});

/** supertest parser that keeps the body as bytes. */
function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}
