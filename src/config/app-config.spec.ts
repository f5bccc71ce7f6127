import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'sqlite', url: 'sqlite:data/gateway.sqlite', path: 'data/gateway.sqlite' });
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.simulator).toBe(true);
    expect(config.taskSyncIntervalMs).toBe(1000);
    expect(config.assetFollowUpIntervalMs).toBe(3000);
    expect(config.taskTimeoutMs).toBe(1_800_000);
    expect(config.mediaAllowPrivateHosts).toBe(false);
    expect(config.maxGatewayHops).toBe(3);
    expect(loadConfig({ MAX_GATEWAY_HOPS: '0' }).maxGatewayHops).toBe(0);
    expect(config.videoMaxBytes).toBe(1024 ** 3);
    expect(config.taskRetentionMs).toBe(0);
    expect(loadConfig({ TASK_RETENTION: '90d' }).taskRetentionMs).toBe(90 * 86_400_000);
  });

  it('a catalog feed: none by default; read every 6h unless CATALOG_FEED_INTERVAL says otherwise (0: start and on demand only)', () => {
    expect(loadConfig({}).catalogFeed).toBeUndefined();
    expect(loadConfig({ CATALOG_FEED_URL: 'https://feeds.example.com/catalog.json' }).catalogFeed).toEqual({
      url: 'https://feeds.example.com/catalog.json',
      intervalMs: 6 * 3_600_000,
      publicKey: null,
    });
    const key = Buffer.alloc(32, 7);
    expect(
      loadConfig({
        CATALOG_FEED_URL: 'file:catalog/builtin-catalog.json',
        CATALOG_FEED_INTERVAL: '0',
        CATALOG_FEED_PUBLIC_KEY: key.toString('base64'),
      }).catalogFeed,
    ).toEqual({ url: 'file:catalog/builtin-catalog.json', intervalMs: 0, publicKey: key });
  });

  it('takes PUBLIC_BASE_URL without its trailing slash, and a port up to 65535', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://gw.example.com/base/' }).publicBaseUrl).toBe('https://gw.example.com/base');
    expect(loadConfig({ PORT: '65535' }).publicBaseUrl).toBe('http://localhost:65535');
  });

  it('channel breakers: 5 faults in a row and 30 s by default; a cool-down of at most 10 minutes', () => {
    expect(loadConfig({})).toMatchObject({ channelBreakerFailures: 5, channelBreakerCooldownMs: 30_000 });
    expect(loadConfig({ CHANNEL_BREAKER_FAILURES: '1', CHANNEL_BREAKER_COOLDOWN_MS: '600000' })).toMatchObject({
      channelBreakerFailures: 1,
      channelBreakerCooldownMs: 600_000,
    });
    expect(() => loadConfig({ CHANNEL_BREAKER_FAILURES: '0' })).toThrow(/CHANNEL_BREAKER_FAILURES: must be an integer from 1 to 1000/);
    expect(() => loadConfig({ CHANNEL_BREAKER_COOLDOWN_MS: '600001' })).toThrow(
      /CHANNEL_BREAKER_COOLDOWN_MS: must be an integer from 100 to 600000/,
    );
  });

  it('turns the asset follow-up off with 0, independently of the task sync', () => {
    const config = loadConfig({ ASSET_FOLLOW_UP_INTERVAL_MS: '0' });
    expect(config.assetFollowUpIntervalMs).toBe(0);
    expect(config.taskSyncIntervalMs).toBe(1000);
  });

  it('traces only with OTEL_EXPORTER_OTLP_ENDPOINT (empty is unset), named video-gateway unless OTEL_SERVICE_NAME says otherwise', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'gw' }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'video-gateway',
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example', OTEL_SERVICE_NAME: 'gw-eu' }).tracing?.serviceName).toBe(
      'gw-eu',
    );
  });

  it('accepts mysql urls', () => {
    expect(loadConfig({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/test' }).database.kind).toBe('mysql');
  });

  it('accepts postgres and postgresql urls', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/gateway' }).database.kind).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'postgresql://gw:pw@db/gateway' }).database.kind).toBe('postgres');
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'oracle://x/y'],
    ['DATABASE_URL', 'postgres://x'],
    ['SIMULATOR', 'maybe'],
    ['TASK_SYNC_INTERVAL_MS', '-5'],
    ['ASSET_FOLLOW_UP_INTERVAL_MS', '1.5'],
    ['ASSET_FOLLOW_UP_INTERVAL_MS', '3600001'],
    ['MEDIA_ALLOW_PRIVATE_HOSTS', 'sure'],
    ['MAX_GATEWAY_HOPS', '21'],
    ['MAX_GATEWAY_HOPS', '-1'],
    ['PORT', '70000'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['PUBLIC_BASE_URL', 'ftp://gateway.example.com'],
    ['PUBLIC_BASE_URL', 'https://gateway.example.com/?x=1'],
    ['TASK_TIMEOUT_MS', '500'],
    ['ADMIN_TOKEN', 'short'],
    ['VIDEO_MAX_BYTES', '0'],
    ['VIDEO_MAX_BYTES', '1GB'],
    ['METRICS_TOKEN', 'short'],
    ['BODY_MEMORY_LIMIT_MB', '0'],
    ['BODY_MEMORY_LIMIT_MB', '64mb'],
    ['TASK_RETENTION', '90'],
    ['TASK_RETENTION', '2w'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'localhost:4318'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['CATALOG_FEED_URL', 'ftp://feeds.example.com/catalog.json'],
    ['CATALOG_FEED_URL', 'catalog.json'],
    ['CATALOG_FEED_INTERVAL', '6'],
    ['CATALOG_FEED_INTERVAL', '30s'],
    ['CATALOG_FEED_INTERVAL', '30d'],
    ['CATALOG_FEED_PUBLIC_KEY', Buffer.alloc(31, 1).toString('base64')],
    ['CATALOG_FEED_PUBLIC_KEY', 'not base64!'],
  ])('rejects a bad %s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  describe('SERVER_SECRET', () => {
    const strong = 'b3f0c6e1a94d27f85e1c0b7a6d3f9e2c41a8d5b7c9e0f1a2b3c4d5e6f7a8b9c0';
    const fileWith = (content: string) => {
      const path = join(mkdtempSync(join(tmpdir(), 'secret-')), 'server_secret');
      writeFileSync(path, content);
      return path;
    };

    it('takes it inline or from SERVER_SECRET_FILE (one trailing newline dropped), and SERVER_SECRET_PREVIOUS beside it', () => {
      expect(loadConfig({ SERVER_SECRET: strong }).serverSecret).toBe(strong);
      expect(loadConfig({ SERVER_SECRET_FILE: fileWith(`${strong}\n`) }).serverSecret).toBe(strong);
      const rotated = loadConfig({ SERVER_SECRET: strong, SERVER_SECRET_PREVIOUS_FILE: fileWith(strong.split('').reverse().join('')) });
      expect(rotated.serverSecretPrevious).toBe(strong.split('').reverse().join(''));
      expect(loadConfig({}).serverSecret).toBeUndefined();
    });

    it.each([
      ['SERVER_SECRET', { SERVER_SECRET: 'short' }, /at least 32 characters/],
      ['SERVER_SECRET', { SERVER_SECRET: 'a'.repeat(64) }, /too predictable/],
      ['SERVER_SECRET', { SERVER_SECRET: 'password'.repeat(6) }, /too predictable/],
      ['SERVER_SECRET', { SERVER_SECRET: strong, SERVER_SECRET_FILE: '/etc/hostname' }, /not both/],
      ['SERVER_SECRET_FILE', { SERVER_SECRET_FILE: '/nonexistent/server_secret' }, /cannot be read \(ENOENT\)/],
      ['SERVER_SECRET_PREVIOUS', { SERVER_SECRET_PREVIOUS: strong }, /needs SERVER_SECRET/],
      ['SERVER_SECRET_PREVIOUS', { SERVER_SECRET: strong, SERVER_SECRET_PREVIOUS: 'x'.repeat(40) }, /too predictable/],
    ])('stops the start naming %s', (name, env, message) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: `));
      expect(() => loadConfig(env)).toThrow(message);
    });

    it('the secret itself never appears in the message', () => {
      expect(() => loadConfig({ SERVER_SECRET: 'secret-phrase-secret-phrase-secret' })).toThrow(/^(?![\s\S]*secret-phrase)/);
    });
  });
});
