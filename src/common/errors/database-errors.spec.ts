import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors';

const driverError = (fields: Record<string, unknown>) => Object.assign(new Error('driver'), fields);

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a full SQLite disk', driverError({ code: 'SQLITE_FULL' })],
    ['an extended SQLite I/O code', driverError({ code: 'SQLITE_IOERR_WRITE' })],
    ['a MySQL server that refuses connections', driverError({ code: 'ECONNREFUSED', fatal: true })],
    ['a mysql2 query timeout', driverError({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' })],
    ['any fatal mysql2 error', driverError({ code: 'SOMETHING_NEW', fatal: true })],
    ['a wrapped driver error', new QueryFailedError('COMMIT', [], driverError({ code: 'SQLITE_FULL' }))],
    ['a PostgreSQL statement_timeout', new QueryFailedError('SELECT', [], driverError({ code: '57014' }))],
    ['a PostgreSQL connection failure (class 08)', driverError({ code: '08006' })],
    ['a PostgreSQL server shutting down', driverError({ code: '57P01' })],
    ['node-postgres query_timeout', new QueryFailedError('SELECT', [], new Error('Query read timeout'))],
    ['no node-postgres pool connection in time', new Error('timeout exceeded when trying to connect')],
    ['a node-postgres connection that broke', new Error('Connection terminated unexpectedly')],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], driverError({ code: 'ER_DUP_ENTRY' }))],
    ['a SQLite constraint', driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' })],
    ['a PostgreSQL unique violation', new QueryFailedError('INSERT', [], driverError({ code: '23505' }))],
    ['a PostgreSQL syntax error', driverError({ code: '42601' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
