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
  });

  it('takes PUBLIC_BASE_URL without its trailing slash, and a port up to 65535', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://gw.example.com/base/' }).publicBaseUrl).toBe('https://gw.example.com/base');
    expect(loadConfig({ PORT: '65535' }).publicBaseUrl).toBe('http://localhost:65535');
  });

  it('turns the asset follow-up off with 0, independently of the task sync', () => {
    const config = loadConfig({ ASSET_FOLLOW_UP_INTERVAL_MS: '0' });
    expect(config.assetFollowUpIntervalMs).toBe(0);
    expect(config.taskSyncIntervalMs).toBe(1000);
  });

  it('accepts mysql urls', () => {
    expect(loadConfig({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/test' }).database.kind).toBe('mysql');
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'postgres://x/y'],
    ['SIMULATOR', 'maybe'],
    ['TASK_SYNC_INTERVAL_MS', '-5'],
    ['ASSET_FOLLOW_UP_INTERVAL_MS', '1.5'],
    ['ASSET_FOLLOW_UP_INTERVAL_MS', '3600001'],
    ['MEDIA_ALLOW_PRIVATE_HOSTS', 'sure'],
    ['PORT', '70000'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['PUBLIC_BASE_URL', 'ftp://gateway.example.com'],
    ['PUBLIC_BASE_URL', 'https://gateway.example.com/?x=1'],
    ['TASK_TIMEOUT_MS', '500'],
    ['ADMIN_TOKEN', 'short'],
    ['METRICS_TOKEN', 'short'],
    ['BODY_MEMORY_LIMIT_MB', '0'],
    ['BODY_MEMORY_LIMIT_MB', '64mb'],
  ])('rejects a bad %s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
