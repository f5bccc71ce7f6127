import { plainToInstance, TransformationType } from 'class-transformer';

/**
 * Measured gain of jsonToInstance over the framework's own path (CPU per request, the median of 24 alternated rounds
 * side by side on the 2-core machine, 2026-12-02): quote x1.15 (quartiles 0.75-1.63). Command: `BENCH=ab BENCH_BASELINE=<this code with it switched off> BENCH_AB_ROUTE=quote BENCH_ROUNDS=24 npm run bench`,
 * the baseline off: `plainToInstance` in its place. Under x1.10 it would go back to the framework (docs/benchmarks.md, "The bypasses, measured").
 */

/** What class-transformer keeps of a `@Type` and a `@Transform` (its metadata classes, not part of its typed API). */
interface TypeMetadataLike {
  typeFunction?: (options: object) => unknown;
  reflectedType: unknown;
  options?: { discriminator?: unknown };
}
interface TransformMetadataLike {
  transformFn: (params: object) => unknown;
  options?: { groups?: string[] };
}
interface Storage {
  _typeMetadatas: Map<unknown, Map<string, TypeMetadataLike>>;
  _transformMetadatas: Map<unknown, Map<string, TransformMetadataLike[]>>;
  _exposeMetadatas: Map<unknown, Map<string | undefined, unknown>>;
  _excludeMetadatas: Map<unknown, Map<string | undefined, unknown>>;
  findTypeMetadata(target: unknown, property: string): TypeMetadataLike | undefined;
  findTransformMetadatas(target: unknown, property: string, type: TransformationType): TransformMetadataLike[];
  getExposedMetadatas(target: unknown): unknown[];
  getExcludedMetadatas(target: unknown): unknown[];
  getStrategy(target: unknown): string;
  getAncestors(target: unknown): unknown[];
}

type Constructor = new () => object;

/** A class's `@Type` and `@Transform` by property, as the executor would find them for each key (inherited ones included). */
interface ClassPlan {
  types: Map<string, TypeMetadataLike>;
  transforms: Map<string, TransformMetadataLike[]>;
}

/** Anything this path does not do as class-transformer would: plainToInstance runs instead. */
class NotReplicated extends Error {}

/* eslint-disable @typescript-eslint/no-require-imports -- class-transformer's metadata store and default options: its own modules, not in its typed API. */
const storage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: Storage }).defaultMetadataStorage;
/** The options the executor hands each `@Transform` (plainToInstance's, under the pipe's `transformOptions`, which are none). */
const EXECUTOR_OPTIONS = {
  ...(require('class-transformer/cjs/constants/default-options.constant') as { defaultOptions: object }).defaultOptions,
};
/* eslint-enable @typescript-eslint/no-require-imports */
const plans = new Map<unknown, ClassPlan | null>();
/** The storage's sizes the plans were read at: a class decorated later drops them. */
let readAt = '';

/**
 * `plainToInstance(schema, body)` as the validation pipe calls it (class-transformer's default options),
 * without its executor's per-key searches of the metadata (a submit paid about a tenth of its CPU
 * for class-transformer): each class's `@Type` and `@Transform` are read once, and the same steps run
 * for each key of the body in the same order. For a JSON body (plain objects, arrays, strings,
 * numbers, booleans, null) and classes that use those two decorators alone; anything else
 * (`@Expose`, `@Exclude`, a discriminator, a Map or Set, an object made otherwise) is left to
 * plainToInstance itself. `json-to-instance.spec.ts` compares the two on every schema of the gateway.
 */
export function jsonToInstance<T extends object>(schema: new () => T, body: object): T {
  try {
    return toInstance(schema, body) as T;
  } catch (error) {
    if (!(error instanceof NotReplicated)) throw error;
    return plainToInstance(schema, body);
  }
}

function toInstance(target: Constructor, value: object): object {
  const plan = planOf(target);
  const instance = new target();
  const prototype = (instance.constructor as { prototype?: object } | undefined)?.prototype;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const subValue = (value as Record<string, unknown>)[key];
    const typeMetadata = plan.types.get(key);
    let type: unknown;
    if (typeMetadata) {
      if (typeMetadata.options?.discriminator || typeMetadata.reflectedType === Map) throw new NotReplicated();
      type = typeMetadata.typeFunction
        ? typeMetadata.typeFunction({ newObject: instance, object: value, property: key })
        : typeMetadata.reflectedType;
    }
    const arrayType = Array.isArray(subValue) ? typeMetadata?.reflectedType : undefined;
    if (prototype) {
      // The executor never writes over a method or a getter-only property of the instance.
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      if ((descriptor && !descriptor.set) || (instance as Record<string, unknown>)[key] instanceof Function) continue;
    }
    let finalValue = transformValue(subValue, type, arrayType);
    const transforms = plan.transforms.get(key);
    if (transforms) {
      for (const transform of transforms)
        finalValue = transform.transformFn({
          value: finalValue,
          key,
          obj: value,
          type: TransformationType.PLAIN_TO_CLASS,
          options: EXECUTOR_OPTIONS,
        });
    }
    // exposeUnsetFields: an undefined value is written too.
    (instance as Record<string, unknown>)[key] = finalValue;
  }
  return instance;
}

/** The executor's `transform` of one value under a property's type (undefined when it has none). */
function transformValue(value: unknown, type: unknown, arrayType: unknown): unknown {
  if (Array.isArray(value)) {
    if (arrayType !== undefined && arrayType !== Array) throw new NotReplicated();
    const copy: unknown[] = [];
    // forEach, as the executor: the gaps are skipped (the pipe has closed them already).
    value.forEach((item: unknown) => copy.push(transformValue(item, type, undefined)));
    return copy;
  }
  if (type === String || type === Number || type === Boolean || type === Date || type === Buffer) {
    if (value === null || value === undefined) return value;
    if (type === String) return String(value);
    if (type === Number) return Number(value);
    if (type === Boolean) return Boolean(value);
    throw new NotReplicated();
  }
  if (value === null || typeof value !== 'object') return value;
  if (Object.getPrototypeOf(value) !== Object.prototype || value instanceof Date || value instanceof Buffer) throw new NotReplicated();
  if (typeof type === 'function') return toInstance(type as Constructor, value);
  if (type !== undefined) throw new NotReplicated();
  // No type: the executor guesses one from `value.constructor`, which a JSON key may shadow.
  if ((value as { constructor?: unknown }).constructor !== Object) throw new NotReplicated();
  return toPlainCopy(value as Record<string, unknown>);
}

/** The executor's copy of an object it has no class for: a new plain object, keys that name Object.prototype's methods left out. */
function toPlainCopy(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, key);
    if ((descriptor && !descriptor.set) || copy[key] instanceof Function) continue;
    copy[key] = transformValue(value[key], undefined, undefined);
  }
  return copy;
}

function planOf(target: Constructor): ClassPlan {
  const sizes = `${storage._typeMetadatas.size}/${storage._transformMetadatas.size}/${storage._exposeMetadatas.size}/${storage._excludeMetadatas.size}`;
  if (sizes !== readAt) {
    plans.clear();
    readAt = sizes;
  }
  let plan = plans.get(target);
  if (plan === undefined) {
    plan = readPlan(target);
    plans.set(target, plan);
  }
  if (!plan) throw new NotReplicated();
  return plan;
}

/** The class's metadata as the executor finds it per key; null when it has some this path does not replicate. */
function readPlan(target: Constructor): ClassPlan | null {
  if (
    storage.getStrategy(target) !== 'none' ||
    storage.getExposedMetadatas(target).length > 0 ||
    storage.getExcludedMetadatas(target).length > 0 ||
    // An `@Expose()`/`@Exclude()` on the class itself is kept under an undefined property name.
    [target, ...storage.getAncestors(target)].some((each) => storage._exposeMetadatas.has(each) || storage._excludeMetadatas.has(each))
  ) {
    return null;
  }
  const names = new Set<string>();
  for (const each of [target, ...storage.getAncestors(target)]) {
    for (const name of storage._typeMetadatas.get(each)?.keys() ?? []) names.add(name);
    for (const name of storage._transformMetadatas.get(each)?.keys() ?? []) names.add(name);
  }
  const types = new Map<string, TypeMetadataLike>();
  const transforms = new Map<string, TransformMetadataLike[]>();
  for (const name of names) {
    const type = storage.findTypeMetadata(target, name);
    if (type) types.set(name, type);
    // With no groups asked for, the executor runs only the transforms that name none (and every version).
    const run = storage
      .findTransformMetadatas(target, name, TransformationType.PLAIN_TO_CLASS)
      .filter((each) => !each.options?.groups?.length);
    if (run.length > 0) transforms.set(name, run);
  }
  return { types, transforms };
}
