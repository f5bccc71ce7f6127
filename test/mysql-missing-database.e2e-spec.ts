import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { expectOneLine, freePort, runToExit, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';

const mysqlUrl = process.env.TEST_MYSQL_URL;

/** No MySQL server at DATABASE_URL's address (a port nothing listens on). */
describe('a MySQL server that does not answer', () => {
  it('ends the start in one line naming DATABASE_URL, without retries', async () => {
    const port = await freePort();
    const { code, output } = await runToExit({ DATABASE_URL: `mysql://root@127.0.0.1:${port}/gateway` });
    expectOneLine(code, output, new RegExp(`^DATABASE_URL: no MySQL server answers at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
  }, 180_000);
});

/** DATABASE_URL names a MySQL database that does not exist yet (the README's first try on MySQL). */
(mysqlUrl ? describe : describe.skip)('a MySQL database that does not exist', () => {
  const server = mysqlUrl ? new URL(mysqlUrl) : new URL('mysql://root@127.0.0.1:3306/test');
  const name = `gw_missing_${randomBytes(5).toString('hex')}`;
  const user = `gw_limited_${randomBytes(4).toString('hex')}`;
  const urlFor = (account: string, password = '') => {
    const url = new URL(server.toString());
    url.username = account;
    url.password = password;
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = async <T>(work: (conn: Awaited<ReturnType<typeof createConnection>>) => Promise<T>): Promise<T> => {
    const conn = await createConnection({ uri: mysqlUrl! });
    try {
      return await work(conn);
    } finally {
      await conn.end();
    }
  };

  afterAll(async () => {
    await admin(async (conn) => {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.query(`DROP USER IF EXISTS '${user}'@'%'`);
    });
  });

  it('is named in one clear line, and the start exits, when the account may not create it', async () => {
    await admin((conn) => conn.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'limited-pw'`));
    const started = Date.now();
    const { code, output } = await runToExit({ DATABASE_URL: urlFor(user, 'limited-pw') });
    expect(code).toBe(1);
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the MySQL database "${name}" does not exist`);
    expect(lines[0]).toContain(`CREATE DATABASE \`${name}\``);
    expect(output).not.toMatch(/Retrying|at .*\.js:\d+/);
    expect(Date.now() - started).toBeLessThan(30_000);
    const [rows] = await admin((conn) => conn.query('SHOW DATABASES LIKE ?', [name]));
    expect(rows).toEqual([]);
  }, 180_000);

  it('a wrong password ends the start in one line naming DATABASE_URL, without retries', async () => {
    const { code, output } = await runToExit({
      DATABASE_URL: urlFor(decodeURIComponent(server.username) || 'root', 'surely-not-the-password'),
    });
    expectOneLine(code, output, /^DATABASE_URL: MySQL at .* refused user ".*" \(wrong user or password\)\.$/);
  }, 180_000);

  it('is created when the account may, and the gateway starts on it', async () => {
    const gateway = await startGatewayProcess({
      DATABASE_URL: urlFor(decodeURIComponent(server.username), decodeURIComponent(server.password)),
      LOG_LEVEL: 'info',
      SIMULATOR: 'on',
    });
    try {
      // Bounded, not asserted: the next line says what the start printed.
      await until('the start-up lines', () => gateway.output(), {
        done: (output) => /simulator +on/.test(output),
        timeoutMs: 30_000,
        everyMs: 200,
      }).catch(() => undefined);
      expect(gateway.output()).toMatch(new RegExp(`database +MySQL .*/${name} \\(created now`));
      const [rows] = await admin((conn) => conn.query('SHOW DATABASES LIKE ?', [name]));
      expect(rows).toHaveLength(1);
    } finally {
      await gateway.stop();
    }
  }, 180_000);
});
