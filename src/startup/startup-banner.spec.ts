import { loadConfig } from '../config/app-config';
import { credentialsBlock, describeDatabase, startupBanner } from './startup-banner';

const demo = { username: 'demo', apiKey: 'sk-demo', password: 'pw-demo', quota: 1_000_000 };

describe('the start-up banner', () => {
  it('says where everything is in a few lines and frames the one-time secrets', () => {
    const config = loadConfig({ PORT: '3000' });
    const lines = startupBanner({
      config,
      port: 3000,
      seed: { root: 'http://127.0.0.1:3000/simulator', repointed: [], demo },
      generatedAdminToken: 'adm-x',
    });
    const text = lines.join('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(text).toContain('http://localhost:3000/console');
    expect(text).toContain('http://localhost:3000/docs');
    expect(text).toContain('SQLite data/gateway.sqlite');
    expect(text).toMatch(/shared +in process/);
    expect(text).toMatch(/\| ADMIN_TOKEN +adm-x +\|/);
    expect(text).toMatch(/\| demo console login +demo \/ pw-demo +\|/);
    expect(lines.at(-1)).toBe('export GW=http://localhost:3000 ADMIN=adm-x KEY=sk-demo PASS=pw-demo');
    expect(text).toMatch(/videos +file:data\/videos/);
    // Every framed line has the same width.
    expect(new Set(lines.filter((line) => /^[|+]/.test(line)).map((line) => line.length)).size).toBe(1);
  });

  it('prints no frame when there is nothing to show once, and never a MySQL password', () => {
    expect(credentialsBlock(null, { root: null, repointed: [], demo: null }, 'http://localhost:3000')).toEqual([]);
    const config = loadConfig({
      DATABASE_URL: 'mysql://gw:s3cret@db:3306/gateway',
      ADMIN_TOKEN: 'a-very-long-admin-token',
      REDIS_URL: 'redis://:r3dis-secret@cache:6379/2',
    });
    expect(describeDatabase(config)).toBe('MySQL gw@db:3306/gateway');
    const text = startupBanner({ config, port: 3000, seed: { root: null, repointed: [], demo: null }, generatedAdminToken: null }).join(
      '\n',
    );
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('r3dis-secret');
    expect(text).toMatch(/shared +Redis cache:6379\/2 \(prefix gateway:\)/);
    expect(text).toMatch(/simulator +off/);
    expect(text).toMatch(/ADMIN_TOKEN from the environment/);
  });
});
