import { ownValue } from './own-value';

describe('ownValue', () => {
  it("reads a table's own entries only", () => {
    const table: Record<string, number> = { a: 1 };
    expect(ownValue(table, 'a')).toBe(1);
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'b']) expect(ownValue(table, key)).toBeUndefined();
  });
});
