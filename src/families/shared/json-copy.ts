/** The value as it will be stored (JSON): fields that are undefined dropped, at any depth, with its type kept. */
export function jsonCopy<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** A shallow copy without the fields that are undefined (cheaper than `jsonCopy` where nothing nests). */
export function withoutUndefined<T extends object>(value: T): T {
  // The copy `{ ...value }` minus the undefined fields, built without them rather than with `delete`
  // (which leaves V8 a slow dictionary-mode object for every later read and the JSON of the task);
  // symbol fields are copied as the spread copies them, undefined or not.
  const copy: Record<PropertyKey, unknown> = {};
  const source = value as Record<PropertyKey, unknown>;
  for (const key of Object.keys(source)) {
    const field = source[key];
    if (field === undefined) continue;
    // A plain assignment of `__proto__` would set the prototype; the spread defines a field.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
    else copy[key] = field;
  }
  for (const symbol of Object.getOwnPropertySymbols(source)) {
    if (Object.prototype.propertyIsEnumerable.call(source, symbol)) copy[symbol] = source[symbol];
  }
  return copy as T;
}
