import { createConnection } from 'mysql2/promise';
import type { DatabaseTarget } from '../config/app-config';

const ER_BAD_DB_ERROR = 1049;
/** What MySQL answers an account without rights on the database, whether it exists or not. */
const ER_DBACCESS_DENIED_ERROR = 1044;

export type EnsureOutcome = { kind: 'exists' | 'created' | 'not-checked' } | { kind: 'missing'; message: string };

/**
 * Before the first connection: a MySQL database named in DATABASE_URL that does not exist is
 * created when the account may (utf8mb4), else the answer says in one line what to do. Anything
 * else (an unreachable server, a wrong password) is left to the normal start and its retries.
 */
export async function ensureMysqlDatabase(target: DatabaseTarget, timeoutMs: number): Promise<EnsureOutcome> {
  if (target.kind !== 'mysql') return { kind: 'not-checked' };
  const url = new URL(target.url);
  const database = decodeURIComponent(url.pathname.slice(1));
  const connect = (withDatabase: boolean) =>
    createConnection({
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      ...(withDatabase ? { database } : {}),
      connectTimeout: timeoutMs,
    });
  let denied = false;
  try {
    await (await connect(true)).end();
    return { kind: 'exists' };
  } catch (error) {
    const errno = (error as { errno?: number }).errno;
    if (errno !== ER_BAD_DB_ERROR && errno !== ER_DBACCESS_DENIED_ERROR) return { kind: 'not-checked' };
    denied = errno === ER_DBACCESS_DENIED_ERROR;
  }
  let server;
  try {
    server = await connect(false);
    await server.query(`CREATE DATABASE IF NOT EXISTS \`${database.replace(/`/g, '``')}\` CHARACTER SET utf8mb4`);
    return { kind: 'created' };
  } catch (error) {
    const reason = (error as { code?: string }).code ?? 'error';
    return {
      kind: 'missing',
      message:
        `DATABASE_URL: the MySQL database "${database}" does not exist on ${url.host}${denied ? ` (or user "${decodeURIComponent(url.username)}" may not use it)` : ''}, ` +
        `and user "${decodeURIComponent(url.username)}" may not create it (${reason}). ` +
        `Create it first (CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4) or name an existing database.`,
    };
  } finally {
    await server?.end().catch(() => undefined);
  }
}
