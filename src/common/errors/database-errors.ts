/**
 * Errors that say the database cannot serve right now (unreachable, stalled, full disk, locked),
 * as opposed to a bug: the client gets a 503 with Retry-After and may simply try again.
 */
const UNAVAILABLE_CODES = new Set([
  // mysql2: the connection or the server went away, or a query/connect timeout fired.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_QUERY_INTERRUPTED',
  'ER_OPTION_PREVENTS_STATEMENT',
  'ER_RECORD_FILE_FULL',
  'ER_DISK_FULL',
  // better-sqlite3: the file cannot be written (full disk, I/O error, read-only) or stays locked.
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_NOMEM',
  // PostgreSQL (SQLSTATE): statement_timeout or a cancel, a lock not had in time, a deadlock or
  // serialization victim, the server shutting down or starting, too many connections, a full disk.
  '57014',
  '55P03',
  '40P01',
  '40001',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '53100',
  '53200',
]);

/** node-postgres's own words for a connection that broke or never came, and for its query_timeout. */
const UNAVAILABLE_MESSAGE =
  /^Pool is closed|connection is in closed state|^Connection terminated|^Query read timeout|timeout exceeded when trying to connect|^Client has encountered a connection error|^Cannot use a pool after calling end/i;

/** TypeORM errors raised when there is no usable connection at all. */
const UNAVAILABLE_NAMES = new Set(['CannotExecuteNotConnectedError', 'ConnectionIsNotSetError', 'PoolClosedError']);

interface DriverErrorLike {
  code?: unknown;
  fatal?: unknown;
  name?: unknown;
  message?: unknown;
  driverError?: DriverErrorLike;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const outer = error as DriverErrorLike;
  for (const candidate of [outer, outer.driverError]) {
    if (!candidate) continue;
    if (candidate.fatal === true) return true; // mysql2 marks connection-level failures fatal
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    // Extended SQLite codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT, ...) share their primary code's prefix.
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CODES.has(code.split('_').slice(0, 2).join('_'))) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true; // PostgreSQL's connection exceptions (class 08)
    if (typeof candidate.name === 'string' && UNAVAILABLE_NAMES.has(candidate.name)) return true;
    if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGE.test(candidate.message)) return true;
  }
  return false;
}
