/** The value as it will be stored (JSON): fields that are undefined dropped, at any depth, with its type kept. */
export function jsonCopy<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** A shallow copy without the fields that are undefined (cheaper than `jsonCopy` where nothing nests). */
export function withoutUndefined<T extends object>(value: T): T {
  const copy = { ...value };
  for (const key of Object.keys(copy) as Array<keyof T>) if (copy[key] === undefined) delete copy[key];
  return copy;
}
