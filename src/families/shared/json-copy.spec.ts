import { withoutUndefined } from './json-copy';

/** The earlier implementation, the reference. */
function spreadThenDelete<T extends object>(value: T): T {
  const copy = { ...value };
  for (const key of Object.keys(copy) as Array<keyof T>) if (copy[key] === undefined) delete copy[key];
  return copy;
}

describe('withoutUndefined', () => {
  const symbol = Symbol('s');
  it.each([
    ['fields, some undefined', { a: 1, b: undefined, c: 'x', d: null, e: undefined, f: { g: undefined } }],
    ['integer-like keys', { 2: 'b', 1: undefined, x: 1, 0: 'a' }],
    ['an own __proto__ field', JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":null}') as object],
    ['an undefined __proto__ field', Object.defineProperty({ a: 1 }, '__proto__', { value: undefined, enumerable: true })],
    ['symbol fields', { a: undefined, [symbol]: undefined, b: 2 }],
    ['nothing', {}],
  ])('copies as the spread and delete did: %s', (_name, value) => {
    const copy = withoutUndefined(value);
    const reference = spreadThenDelete(value);
    expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys(reference));
    for (const key of Reflect.ownKeys(reference)) {
      expect(Object.getOwnPropertyDescriptor(copy, key)).toEqual(Object.getOwnPropertyDescriptor(reference, key));
    }
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).not.toBe(value);
  });
});
