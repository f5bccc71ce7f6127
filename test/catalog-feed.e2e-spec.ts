import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, RecordedRequest, startLoopbackServer } from './support/http-server';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';
import { until } from './support/until';

const QUOTA = 1_000_000;
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_KEY = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64');

/** A model the release does not ship, served on Kling (the emulator takes kling-v3-1), at `price` per second. */
const feedModel = (id: string, price: number, extra: object = {}) => ({
  id,
  label: `Feed ${id}`,
  owned_by: 'kling',
  modes: ['text-to-video', 'image-to-video'],
  durations: [5, 10],
  resolutions: ['720p'],
  aspect_ratios: ['16:9', '9:16', '1:1'],
  audio: 'none',
  prices: [{ resolution: '720p', unit: 'second', price }],
  routes: [{ platform: 'kling', upstream_model: 'kling-v3-1' }],
  ...extra,
});

/** What the feed server answers: a document (its ETag a digest of its bytes) and `<url>.sig`, or a fault. */
interface Published {
  bytes: Buffer;
  /** The signature file's text; by default the signature of `bytes`. */
  signature?: string;
  fault?: 'hang-up' | 'slow';
}

const documentOf = (models: object[]) => Buffer.from(`${JSON.stringify({ version: 1, models }, null, 2)}\n`);
const signatureOf = (bytes: Buffer) => sign(null, bytes, privateKey).toString('base64');
const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;

/**
 * The catalog feed (CATALOG_FEED_URL), served by a test HTTP server on loopback and signed with
 * Ed25519: a model the feed adds at start is sold by a channel at the feed's price; the operator's
 * change to a feed model outlives the feed's; a second read is a 304 that changes nothing. Money and
 * the merge, so on every database; the refusals (a bad signature, not JSON, one invalid entry, a
 * feed unreachable or slow) change nothing whatever the database, so on SQLite only.
 */
describeEachDatabase('the catalog feed', (kind) => {
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let feed: LoopbackServer;
  let published: Published;
  let customer: { userId: number; key: string };

  const serve = async (req: RecordedRequest, res: ServerResponse) => {
    const { bytes, signature, fault } = published;
    if (fault === 'hang-up') return void res.socket?.destroy();
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, 11_000));
    if (req.path === '/feeds/catalog.json.sig')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(signature ?? signatureOf(bytes));
    if (req.path !== '/feeds/catalog.json') return void res.writeHead(404).end();
    if (req.headers['if-none-match'] === etagOf(bytes)) return void res.writeHead(304, { etag: etagOf(bytes) }).end();
    res.writeHead(200, { 'content-type': 'application/json', etag: etagOf(bytes) }).end(bytes);
  };
  const feedState = async () => (await gw.admin.get('/api/admin/models/feed').expect(200)).body;
  const refresh = async () => (await gw.admin.post('/api/admin/models/feed/refresh').expect(200)).body;
  const catalogFile = async () => (await gw.admin.get('/api/admin/models/export').expect(200)).body;
  const documentReads = () => feed.requests.filter((req) => req.path === '/feeds/catalog.json');

  beforeAll(async () => {
    published = { bytes: documentOf([feedModel('feed-kling-x', 900), feedModel('feed-kling-z', 500)]) };
    [kling, feed] = await Promise.all([startKlingEmulator(), startLoopbackServer((req, res) => serve(req, res))]);
    gw = await startGateway(kind, {
      // The query stands for a token: never shown by the admin API.
      CATALOG_FEED_URL: `${feed.url}/feeds/catalog.json?token=feed-secret-123`,
      CATALOG_FEED_PUBLIC_KEY: PUBLIC_KEY,
      CATALOG_FEED_INTERVAL: '0',
    });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([kling?.close(), feed?.close()]);
  });

  it("adds at start the feed's model, which a channel then sells at the feed's price", async () => {
    const state = await until('the start read of the feed', async () => {
      const body = await feedState();
      return body.last_ok_at !== null && body;
    });
    expect(state).toEqual({
      url: `${feed.url}/feeds/catalog.json?…`,
      last_ok_at: expect.any(Number),
      last_read_at: state.last_ok_at,
      etag: etagOf(published.bytes),
      last_error: null,
      applied: { added: ['feed-kling-x', 'feed-kling-z'], changed: [], unchanged: [], kept_operator_changes: [] },
    });
    expect(JSON.stringify(state)).not.toContain('feed-secret-123');
    // The document's signature was fetched beside it, with the same query.
    expect(feed.requests.find((req) => req.path === '/feeds/catalog.json.sig')?.query.get('token')).toBe('feed-secret-123');
    const entry = (await gw.admin.get('/api/admin/models/feed-kling-x').expect(200)).body;
    expect(entry).toMatchObject({ source: 'feed', modified: false, label: 'Feed feed-kling-x', owned_by: 'kling' });

    await gw.createChannel({ name: 'kling', platform: 'kling', base_url: kling.url, api_key: kling.apiKey, models: ['feed-kling-x'] });
    const before = await gw.balance(customer.userId);
    const submitted = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'feed-kling-x', prompt: 'a lighthouse at dusk', seconds: '5', size: '1280x720' })
      .expect(200);
    expect(submitted.body).toMatchObject({ model: 'feed-kling-x', status: 'queued' });
    expect(kling.creates.at(-1)!.body).toMatchObject({ model_name: 'kling-v3-1', duration: '5' });
    expect(await gw.balance(customer.userId)).toEqual({ quota: before.quota - 5 * 900, used_quota: before.used_quota + 5 * 900 });
  });

  it("keeps the operator's change when the feed changes that model, takes the feed's other changes, and a second read is a 304 that changes nothing", async () => {
    await gw.admin.patch('/api/admin/models/feed-kling-x', { prices: [{ resolution: '720p', unit: 'second', price: 700 }] }).expect(200);
    published = {
      bytes: documentOf([
        feedModel('feed-kling-x', 950, { label: 'Feed X, renamed' }),
        feedModel('feed-kling-z', 550),
        feedModel('feed-kling-y', 400),
      ]),
    };
    const applied = await refresh();
    expect(applied).toMatchObject({
      etag: etagOf(published.bytes),
      last_error: null,
      applied: { added: ['feed-kling-y'], changed: ['feed-kling-z'], unchanged: [], kept_operator_changes: ['feed-kling-x'] },
    });
    expect((await gw.admin.get('/api/admin/models/feed-kling-x').expect(200)).body).toMatchObject({
      label: 'Feed feed-kling-x',
      prices: [{ price: 700 }],
      source: 'feed',
      modified: true,
    });
    expect((await gw.admin.get('/api/admin/models/feed-kling-z').expect(200)).body).toMatchObject({
      prices: [{ price: 550 }],
      modified: false,
    });
    const quote = await gw.http
      .post('/v1/videos/quote')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'feed-kling-x', prompt: 'p', seconds: '5' })
      .expect(200);
    expect(quote.body.quota).toBe(5 * 700);

    const catalog = await catalogFile();
    const reads = documentReads().length;
    const again = await refresh();
    expect(documentReads()).toHaveLength(reads + 1);
    expect(documentReads().at(-1)!.headers['if-none-match']).toBe(etagOf(published.bytes));
    expect(again).toMatchObject({
      etag: etagOf(published.bytes),
      last_error: null,
      applied: { added: [], changed: [], unchanged: [], kept_operator_changes: [] },
    });
    expect(again.last_ok_at).toBeGreaterThanOrEqual(applied.last_ok_at);
    expect(await catalogFile()).toEqual(catalog);
  });

  itOnSqliteOnly(kind)('a feed unreachable at start never stops the start: the gateway serves, and the state says why', async () => {
    const second = await startGateway(kind, { CATALOG_FEED_URL: 'http://127.0.0.1:1/catalog.json' });
    try {
      const state = await until('the start read of the unreachable feed', async () => {
        const body = (await second.admin.get('/api/admin/models/feed').expect(200)).body;
        return body.last_read_at !== null && body;
      });
      expect(state).toEqual({
        url: 'http://127.0.0.1:1/catalog.json',
        last_ok_at: null,
        last_read_at: expect.any(Number),
        etag: null,
        last_error: 'the document cannot be read (ECONNREFUSED)',
        applied: null,
      });
      await second.http
        .get('/v1/models')
        .set('Authorization', `Bearer ${(await second.createCustomer()).key}`)
        .expect(200);
    } finally {
      await second.close();
    }
  });

  itOnSqliteOnly(kind)(
    'a bad signature, a document that is not JSON, one invalid entry, a feed that hangs up or is too slow: each changes nothing, and the state says why and when the feed last read well',
    async () => {
      const good = await feedState();
      const catalog = await catalogFile();
      const withNewModel = documentOf([feedModel('feed-kling-x', 950), feedModel('feed-kling-w', 100)]);
      const cases: Array<[string, Published, string | RegExp]> = [
        [
          'a bad signature',
          { bytes: withNewModel, signature: signatureOf(published.bytes) },
          'the signature does not verify with CATALOG_FEED_PUBLIC_KEY',
        ],
        ['not a signature at all', { bytes: withNewModel, signature: 'not found' }, /not a base64 Ed25519 signature/],
        ['not JSON', { bytes: Buffer.from('<html>502 Bad Gateway</html>') }, 'the document is not JSON'],
        [
          'one invalid entry',
          {
            bytes: documentOf([
              feedModel('feed-kling-w', 100),
              feedModel('feed-kling-v', 100, { prices: [{ resolution: '720p', unit: 'second', price: -1 }] }),
            ]),
          },
          /^models\[1\]\.prices\[0\]\.price must not be less than 0/,
        ],
        ['another version', { bytes: Buffer.from(JSON.stringify({ version: 2, models: [] })) }, 'version must be 1 (the document says 2)'],
        ['a hang-up', { bytes: withNewModel, fault: 'hang-up' }, /^the document cannot be read \(/],
        ['a feed slower than 10 s', { bytes: withNewModel, fault: 'slow' }, 'the document did not arrive within 10 s'],
      ];
      for (const [name, document, reason] of cases) {
        published = document;
        const answer = await refresh();
        const state = await feedState();
        expect({ name, state }).toEqual({
          name,
          state: expect.objectContaining({
            last_error: typeof reason === 'string' ? reason : expect.stringMatching(reason),
            last_ok_at: good.last_ok_at,
            etag: good.etag,
            applied: good.applied,
          }),
        });
        expect(answer).toEqual(state);
        expect(await catalogFile()).toEqual(catalog);
      }
      // The first good read since clears the error.
      published = { bytes: withNewModel };
      expect(await refresh()).toMatchObject({
        last_error: null,
        applied: { added: ['feed-kling-w'], kept_operator_changes: ['feed-kling-x'] },
      });
    },
    30_000,
  );
});
