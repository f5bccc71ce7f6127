import { numberPlaceholders } from './postgres-driver';

describe('numberPlaceholders', () => {
  it('numbers each ? in order, typing number parameters', () => {
    expect(numberPlaceholders('UPDATE t SET a = ?, b = ? WHERE id = ? AND s = ?', [5, 1.5, null, 'x'])).toBe(
      'UPDATE t SET a = $1::bigint, b = $2::float8 WHERE id = $3 AND s = $4',
    );
  });

  it('leaves a ? inside quoted strings and names alone', () => {
    expect(numberPlaceholders(`SELECT '?' AS "why?" FROM t WHERE x = ? AND y LIKE 'a?b'`, ['v'])).toBe(
      `SELECT '?' AS "why?" FROM t WHERE x = $1 AND y LIKE 'a?b'`,
    );
  });

  it('leaves SQL that numbers its parameters already (TypeORM’s own) as it is', () => {
    expect(numberPlaceholders('SELECT * FROM t WHERE a = $1', [1])).toBe('SELECT * FROM t WHERE a = $1');
  });
});
