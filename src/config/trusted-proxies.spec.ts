import { ConfigError, loadConfig } from './app-config';

describe('TRUSTED_PROXIES', () => {
  const load = (value?: string) => loadConfig(value === undefined ? {} : { TRUSTED_PROXIES: value }).trustedProxies;

  it('trusts no proxy by default', () => {
    expect(load()).toBe(false);
    expect(load('')).toBe(false);
  });

  it('takes a hop count, or a comma list of IPs, CIDRs and express range names', () => {
    expect(load('1')).toBe(1);
    expect(load('10.0.0.0/8, 192.168.1.7,::1, fd00::/8,loopback')).toEqual(['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses "true" (any client could choose its address) and anything that is not an address', () => {
    for (const bad of ['true', '*', '10.0.0.0/99', 'proxy.example.com', '10.0.0.1, nope']) {
      expect(() => load(bad)).toThrow(ConfigError);
      expect(() => load(bad)).toThrow(/TRUSTED_PROXIES/);
    }
  });
});

describe('REDIS_URL and REDIS_KEY_PREFIX', () => {
  it('are optional; a URL must be redis:// or rediss://, a prefix plain characters', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, redisKeyPrefix: 'gateway:' });
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2', REDIS_KEY_PREFIX: 'gw-a:' })).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379/2',
      redisKeyPrefix: 'gw-a:',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'a b' })).toThrow(/REDIS_KEY_PREFIX/);
  });
});
