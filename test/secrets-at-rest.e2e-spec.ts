import { createHmac, hkdfSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { alphaChannelBody, binaryBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { approvedCustomer } from './support/verification-customers';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, executeOnDatabase, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);
const SECRET_A = '4f1c9a7e2b8d3f60a5c1e9b7d2f4a8c63e5b1d7f9a2c4e6b8d0f1a3c5e7b9d2f';
const SECRET_B = 'Zq8rT2vLx5Nw9Kc3Hj7Pm1Fd6Gs4Yb0Ue2Ai8Oo5Rt3Wl7Xn9Qv1Sz6Bc4Dk0Mh';
const ALPHA_KEY = 'alpha-provider-key-7d1e55';
/** As long as a key may be (512 characters): sealed, it is longer than the column was before. */
const BETA_KEY = `beta-provider-key-${'93ac0f'.repeat(100)}`.slice(0, 512);
const GAMMA_KEYS = {
  apiKey: 'gamma-provider-key-1b2c3d',
  accessKey: 'AKLTgamma-access-9f8e7d',
  secretKey: 'gamma-secret-key-6a5b4c3d2e1f',
};
const PROVIDER_SECRETS = [ALPHA_KEY, BETA_KEY, GAMMA_KEYS.apiKey, GAMMA_KEYS.accessKey, GAMMA_KEYS.secretKey];

interface ChannelRow {
  id: number;
  api_key: string;
  settings: string | null;
}

/**
 * Secrets at rest: with SERVER_SECRET set, a copy of the database holds no provider key and no key
 * that signs or decrypts; provider keys are sealed in every mode (plain legacy rows too, at start);
 * SERVER_SECRET_PREVIOUS rotates the key; switching from the database-held secret keeps stored
 * webhook secrets, provider keys and archived videos working.
 */
describeEachDatabase('secrets at rest', (kind) => {
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  let gamma: GammaEmulatorServer;
  let receiver: WebhookReceiver;
  const databases: FreshDatabase[] = [];
  let gw: TestGateway | undefined;

  beforeAll(async () => {
    alpha = await startAlphaEmulator({ apiKey: ALPHA_KEY });
    alpha.videoBytes = SAMPLE;
    beta = await startBetaEmulator({ apiKey: BETA_KEY });
    gamma = await startGammaEmulator(GAMMA_KEYS);
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    await alpha?.close();
    await beta?.close();
    await gamma?.close();
    await receiver?.stop();
  });

  /** One database and one video store that every (re)start of a scenario shares. */
  const scenario = async () => {
    const database = await freshDatabase(kind);
    databases.push(database);
    const videoStore = `file:${mkdtempSync(join(tmpdir(), 'gw-secrets-videos-'))}`;
    return {
      database,
      start: async (env: Record<string, string>) => {
        await gw?.close();
        gw = await startGateway(kind, { VIDEO_STORE: videoStore, WEBHOOK_DELIVERY_INTERVAL_MS: '0', ...env }, database);
        const clock = gw.clock;
        gamma.now = () => clock.now();
        return gw;
      },
    };
  };

  /** Channels on the three fakes, a customer, and a webhook endpoint: the secret it was shown. */
  const setUp = async (gateway: TestGateway) => {
    await gateway.createChannel(alphaChannelBody(alpha));
    await gateway.createChannel(betaChannelBody(beta));
    await gateway.createChannel(gamma.channelBody());
    const customer = await gateway.createCustomer({ quota: 100_000_000 });
    const endpoint = await gateway.http
      .post('/v1/webhooks')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ url: receiver.url })
      .expect(201);
    return { key: customer.key, webhookSecret: endpoint.body.secret as string };
  };

  /** A family A task, completed and archived: its signed content link. */
  const archivedVideo = async (gateway: TestGateway, key: string) => {
    alpha.scriptNext(finishAfter(0));
    const submitted = await gateway.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'alpha/v5', prompt: 'a lighthouse' })
      .expect(200);
    gateway.clock.advance(4000);
    await gateway.syncTasksOnly();
    expect(await gateway.app.get(VideoArchiveJob).archiveDueVideos()).toBeGreaterThanOrEqual(1);
    const done = await gateway.http.get(`/v1/videos/${submitted.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(done.body.status).toBe('completed');
    return { id: submitted.body.id as string, link: done.body.metadata.url as string };
  };

  const play = (link: string) => {
    const url = new URL(link);
    return gw!.http.get(`${url.pathname}${url.search}`).buffer(true).parse(binaryBody);
  };

  /** A link to `id` signed with `key`, as someone holding it would make one. */
  const forgedLink = (id: string, key: Buffer) => {
    const expires = Math.floor(gw!.clock.now() / 1000) + 3600;
    return `http://x/v1/videos/${id}/content?expires=${expires}&signature=${createHmac('sha256', key).update(`${id}\n${expires}`).digest('hex')}`;
  };

  /** Every way a value the database holds could serve as the signing key: as it is, or as a server secret. */
  const keysFrom = (value: string): Buffer[] => {
    const secrets = [Buffer.from(value, 'utf8'), ...(/^[0-9a-f]+$/.test(value) ? [Buffer.from(value, 'hex')] : [])];
    return secrets.flatMap((secret) => [secret, Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'signed-links', 32))]);
  };

  /** What a stolen copy of the database shows: no provider key, no signing key that forges a link to `id`. */
  const expectNothingUsableAtRest = async (database: FreshDatabase, id: string, webhookSecret: string) => {
    const channels = await queryDatabase<ChannelRow>(database, 'SELECT id, api_key, settings FROM channels');
    expect(channels).toHaveLength(3);
    const raw = JSON.stringify(channels);
    for (const secret of PROVIDER_SECRETS) expect(raw).not.toContain(secret);
    for (const channel of channels) expect(channel.api_key).toMatch(/^enc:v1:/);
    const gammaSettings = JSON.parse(channels.find((channel) => channel.settings?.includes('secret_key'))!.settings!);
    expect(gammaSettings).toMatchObject({ access_key: expect.stringMatching(/^enc:v1:/), secret_key: expect.stringMatching(/^enc:v1:/) });

    const endpoints = await queryDatabase<{ secret_encrypted: string }>(database, 'SELECT secret_encrypted FROM webhook_endpoints');
    expect(JSON.stringify(endpoints)).not.toContain(webhookSecret.slice('whsec_'.length));

    const settings = await queryDatabase<{ setting_key: string; value: string }>(database, 'SELECT setting_key, value FROM settings');
    expect(settings.map((row) => row.setting_key)).not.toContain('server_secret');
    for (const { value } of settings) for (const key of keysFrom(value)) await play(forgedLink(id, key)).expect(403);
  };

  /** Everything the stored secrets serve still works: links play, webhooks verify, each provider gets its key. */
  const expectSecretsStillServe = async (gateway: TestGateway, key: string, webhookSecret: string, link: string) => {
    const played = await play(link).expect(200);
    expect(played.headers['content-type']).toBe('video/mp4');
    expect(Buffer.compare(played.body, SAMPLE)).toBe(0);

    // Family A: its API-KEY header; family B: its Authorization header; family C: a control-plane call signed with its secret key.
    alpha.requests.splice(0);
    const { id } = await archivedVideo(gateway, key);
    const apiCalls = [...alpha.calls('generate'), ...alpha.calls('result')];
    expect(apiCalls.length).toBeGreaterThanOrEqual(2);
    for (const request of apiCalls) expect(request.headers['api-key']).toBe(ALPHA_KEY);
    const submitsBefore = beta.submits().length;
    await gateway.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'beta-1.0-t2v', prompt: 'a lighthouse in a storm', size: '720P' })
      .expect(200);
    expect(beta.submits()).toHaveLength(submitsBefore + 1);
    expect(beta.submits().at(-1)!.headers.authorization).toBe(`Bearer ${BETA_KEY}`);
    const verified = await approvedCustomer(gateway);
    const callsBefore = gamma.controlCalls.length;
    await gateway.http
      .post('/v1/verification/sessions')
      .set('Authorization', `Bearer ${verified.key}`)
      .send({ callback_url: 'https://biz.example/cb' })
      .expect(201);
    expect(gamma.controlCalls.length).toBeGreaterThan(callsBefore);
    for (const call of gamma.controlCalls.slice(callsBefore)) expect(call.signatureError).toBeNull();

    // The task's video.completed event, signed with the secret shown when the endpoint was created.
    const receivedBefore = receiver.received.length;
    await gateway.app.get(WebhookDeliveryService).deliverDueWebhooks();
    const event = receiver.received.slice(receivedBefore).find((request) => request.json?.data?.id === id);
    expect(event).toBeDefined();
    expect(new Webhook(webhookSecret).verify(event!.body, receiver.headersOf(event!))).toMatchObject({ type: 'video.completed' });

    // Nor does any response show a provider key.
    const listed = JSON.stringify((await gateway.admin.get('/api/admin/channels').expect(200)).body);
    for (const secret of PROVIDER_SECRETS) expect(listed).not.toContain(secret);
    return id;
  };

  it('with SERVER_SECRET set: the raw database holds no provider key and no usable signing key; a link forged from it is refused while the real one plays', async () => {
    const { database, start } = await scenario();
    const gateway = await start({ SERVER_SECRET: SECRET_A });
    const { key, webhookSecret } = await setUp(gateway);
    const { id, link } = await archivedVideo(gateway, key);
    await expectNothingUsableAtRest(database, id, webhookSecret);
    await expectSecretsStillServe(gateway, key, webhookSecret, link);
  });

  it('rotation: with SERVER_SECRET_PREVIOUS the old links play and everything is re-encrypted at start; once it is dropped, the old links are refused and the rest keeps working', async () => {
    const { database, start } = await scenario();
    let gateway = await start({ SERVER_SECRET: SECRET_A });
    const { key, webhookSecret } = await setUp(gateway);
    const { id, link: linkA } = await archivedVideo(gateway, key);
    const sealedUnderA = await queryDatabase<ChannelRow>(database, 'SELECT id, api_key, settings FROM channels ORDER BY id');
    const endpointUnderA = await queryDatabase<{ secret_encrypted: string }>(database, 'SELECT secret_encrypted FROM webhook_endpoints');

    // Without downtime, the new key is first accepted everywhere (still sealing with the old one), then used.
    gateway = await start({ SERVER_SECRET: SECRET_A, SERVER_SECRET_PREVIOUS: SECRET_B });
    await play(linkA).expect(200);
    await gateway.http.get(`/v1/videos/${id}/content?variant=thumbnail`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(await queryDatabase<ChannelRow>(database, 'SELECT id, api_key, settings FROM channels ORDER BY id')).toEqual(sealedUnderA);

    gateway = await start({ SERVER_SECRET: SECRET_B, SERVER_SECRET_PREVIOUS: SECRET_A });
    await play(linkA).expect(200);
    const sealedUnderB = await queryDatabase<ChannelRow>(database, 'SELECT id, api_key, settings FROM channels ORDER BY id');
    sealedUnderB.forEach((row, index) => expect(row.api_key).not.toBe(sealedUnderA[index].api_key));
    expect(
      (await queryDatabase<{ secret_encrypted: string }>(database, 'SELECT secret_encrypted FROM webhook_endpoints'))[0].secret_encrypted,
    ).not.toBe(endpointUnderA[0].secret_encrypted);
    const linkB = (await gateway.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.metadata
      .url as string;
    await expectSecretsStillServe(gateway, key, webhookSecret, linkB);

    gateway = await start({ SERVER_SECRET: SECRET_B });
    await play(linkA).expect(403);
    await expectSecretsStillServe(gateway, key, webhookSecret, linkB);
    // The video archived under the old key is still found in the store (its thumbnail has no other source).
    await gw!.http.get(`/v1/videos/${id}/content?variant=thumbnail`).set('Authorization', `Bearer ${key}`).expect(200);
    await expectNothingUsableAtRest(database, id, webhookSecret);
  });

  it('an existing database: plain provider keys are encrypted at start, and switching from the database-held secret to SERVER_SECRET keeps webhook secrets, provider keys and archived videos working', async () => {
    const { database, start } = await scenario();
    let gateway = await start({});
    const { key, webhookSecret } = await setUp(gateway);
    const { id, link: linkFromDatabaseSecret } = await archivedVideo(gateway, key);
    expect(
      (await queryDatabase<{ setting_key: string }>(database, 'SELECT setting_key FROM settings')).map((row) => row.setting_key),
    ).toContain('server_secret');

    // Rows as a gateway before encryption left them: the keys in plain text.
    const writePlainKeys = async () => {
      const plainKeys: Record<string, string> = { alpha: ALPHA_KEY, beta: BETA_KEY, gamma: GAMMA_KEYS.apiKey };
      for (const channel of await queryDatabase<ChannelRow & { platform: string }>(
        database,
        'SELECT id, platform, api_key, settings FROM channels',
      )) {
        const settings =
          channel.platform === 'gamma'
            ? JSON.stringify({ ...JSON.parse(channel.settings!), access_key: GAMMA_KEYS.accessKey, secret_key: GAMMA_KEYS.secretKey })
            : channel.settings;
        await executeOnDatabase(database, 'UPDATE channels SET api_key = ?, settings = ? WHERE id = ?', [
          plainKeys[channel.platform],
          settings,
          channel.id,
        ]);
      }
      expect(JSON.stringify(await queryDatabase(database, 'SELECT api_key, settings FROM channels'))).toContain(GAMMA_KEYS.secretKey);
    };

    // A database as the gateway before encryption left it: plain keys, the api_key column of then, the migration not run yet.
    await gateway.close();
    gw = undefined;
    await writePlainKeys();
    if (kind === 'mysql') await executeOnDatabase(database, 'ALTER TABLE channels MODIFY api_key VARCHAR(512) NOT NULL');
    await executeOnDatabase(database, "DELETE FROM migrations WHERE name = 'SealedProviderKeys1764500000200'");

    // Without SERVER_SECRET: the migration runs on these rows, and the plain keys are encrypted at start (with the database-held secret).
    gateway = await start({});
    const channels = await queryDatabase<ChannelRow>(database, 'SELECT id, api_key, settings FROM channels');
    for (const secret of PROVIDER_SECRETS) expect(JSON.stringify(channels)).not.toContain(secret);
    await expectSecretsStillServe(gateway, key, webhookSecret, linkFromDatabaseSecret);

    // Switching to SERVER_SECRET (with plain rows again): everything moves under it, the database-held secret is deleted.
    await writePlainKeys();
    gateway = await start({ SERVER_SECRET: SECRET_A });
    await play(linkFromDatabaseSecret).expect(403);
    const link = (await gateway.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.metadata.url as string;
    await gw!.http.get(`/v1/videos/${id}/content?variant=thumbnail`).set('Authorization', `Bearer ${key}`).expect(200);
    await expectSecretsStillServe(gateway, key, webhookSecret, link);
    await expectNothingUsableAtRest(database, id, webhookSecret);
  });
});
