import { createConnection } from 'mysql2/promise';
import type { DatabaseTarget } from '../config/app-config';

const ER_BAD_DB_ERROR = 1049;
/** What MySQL answers an account without rights on the database, whether it exists or not. */
const ER_DBACCESS_DENIED_ERROR = 1044;
/** A wrong user or password: retrying will not heal it. */
const ER_ACCESS_DENIED_ERROR = 1045;
/** Network errors meaning no MySQL server answers at the address (none of them heals by retrying within a start). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET']);

export type EnsureOutcome = { kind: 'exists' | 'created' | 'not-checked' } | { kind: 'unusable'; message: string };

/**
 * Before the first connection: a MySQL database named in DATABASE_URL that does not exist is
 * created when the account may (utf8mb4), else the answer says in one line what to do. An
 * unreachable server or a wrong password also ends the start with one line naming DATABASE_URL,
 * instead of TypeORM's ten rounds of retries and stack traces.
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
  let denied: boolean;
  try {
    await (await connect(true)).end();
    return { kind: 'exists' };
  } catch (error) {
    const { errno, code } = error as { errno?: number; code?: string };
    if (errno === ER_ACCESS_DENIED_ERROR) {
      return {
        kind: 'unusable',
        message: `DATABASE_URL: MySQL at ${url.host} refused user "${decodeURIComponent(url.username)}" (wrong user or password).`,
      };
    }
    if (code && UNREACHABLE.has(code)) {
      return {
        kind: 'unusable',
        message: `DATABASE_URL: no MySQL server answers at ${url.host} (${code}). Start it, or point DATABASE_URL at a running one.`,
      };
    }
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
      kind: 'unusable',
      message:
        `DATABASE_URL: the MySQL database "${database}" does not exist on ${url.host}${denied ? ` (or user "${decodeURIComponent(url.username)}" may not use it)` : ''}, ` +
        `and user "${decodeURIComponent(url.username)}" may not create it (${reason}). ` +
        `Create it first (CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4) or name an existing database.`,
    };
  } finally {
    await server?.end().catch(() => undefined);
  }
}
