import type { Type } from '@nestjs/common';
import { closeArrayGaps } from '@nestjs/common/utils/close-array-gaps.util';
import { stripProtoKeys } from '@nestjs/common/utils/strip-proto-keys.util';
import { jsonToInstance } from './json-to-instance';
import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

/**
 * Measured gain of the body rules' fast path over the framework's own path (CPU per request, the median of 24 alternated rounds
 * side by side on the 2-core machine, 2026-12-02): quote x1.41 (quartiles 1.17-1.58). Command: `BENCH=ab BENCH_BASELINE=<this code with it switched off> BENCH_AB_ROUTE=quote BENCH_ROUNDS=24 npm run bench`,
 * the baseline off: `validBody` straight to the pipe. Under x1.10 it would go back to the framework (docs/benchmarks.md, "The bypasses, measured").
 */

/**
 * The success path of `validBody`, without class-validator's per-call bookkeeping (a request body
 * paid about 15 us a schema for it: the metadata of every class searched, an error object built per
 * field, then thrown away). The class's rules are read once from class-validator's own metadata and
 * run as its ValidationExecutor runs them under the lenient pipe's options (whitelist, unknown fields
 * dropped); the instance is class-transformer's, as the pipe makes it. This path never answers a
 * 400: at the first rule that fails, or anything it does not cover, it answers `undefined` and
 * `validBody` runs the pipe, which makes the error. So an error is the pipe's by construction, and
 * `body-rules-fast-path.spec.ts` checks the accepted instances against the pipe's.
 */
export function instanceIfValid<T extends object>(schema: Type<T>, body: unknown): T | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || isBinary(body)) return undefined;
  const plan = planOf(schema);
  if (!plan) return undefined;
  // What the pipe does to the value before class-transformer reads it (the same functions, in place);
  // nothing, to a body with no gaps and no prototype keys, which is what it is told apart by first.
  if (!isCleanJson(body)) {
    closeArrayGaps(body);
    stripProtoKeys(body);
  }
  const dropped: Array<[object, string]> = [];
  let instance: T;
  try {
    instance = jsonToInstance(schema, body);
    if (instance.constructor !== schema || !objectPasses(instance, plan, dropped)) return undefined;
  } catch {
    // A transform or rule that throws: the pipe throws it again, as before.
    return undefined;
  }
  // Unknown fields go once every rule has passed, so nothing is changed on the way to a refusal.
  for (const [object, key] of dropped) delete (object as Record<string, unknown>)[key];
  return instance;
}

type Condition = (object: object, value: unknown) => unknown;

interface ValidationMetadataLike {
  type: string;
  target: unknown;
  propertyName: string;
  constraints: unknown[];
  constraintCls: unknown;
  each?: boolean;
  always?: boolean;
  groups?: string[];
  validateIf?: Condition;
}

interface ConstraintLike {
  instance: { validate(value: unknown, args: ValidationArguments): unknown };
}

/** class-validator's storage, whose maps its own executor reads (not part of its typed API). */
interface Storage {
  validationMetadatas: Map<unknown, ValidationMetadataLike[]>;
  constraintMetadatas: Map<unknown, ConstraintLike[]>;
  getTargetValidationMetadatas(
    target: unknown,
    schema: string | undefined,
    always: boolean,
    strictGroups: boolean,
    groups?: string[],
  ): ValidationMetadataLike[];
  groupByPropertyName(metadatas: ValidationMetadataLike[]): Record<string, ValidationMetadataLike[]>;
  getTargetValidatorConstraints(target: unknown): ConstraintLike[];
}

interface Check {
  metadata: ValidationMetadataLike;
  constraints: ConstraintLike[];
}

interface PropertyPlan {
  name: string;
  conditions: Condition[];
  checks: Check[];
  /** How many `@ValidateNested` the property has (each one walks the value, as class-validator does). */
  nested: number;
}

interface ClassPlan {
  /** The rules by field, as the executor groups them: its whitelist keeps a field only where this has rules. */
  grouped: Record<string, ValidationMetadataLike[]>;
  properties: PropertyPlan[];
}

/** The metadata kinds this path runs; a class with any other (`@Allow`, `@IsDefined`, promises) goes to the pipe. */
const RUN_HERE = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
]);

const plans = new Map<unknown, ClassPlan | null>();
/** The storage's sizes the plans were read at: a class or constraint defined later drops them. */
let readAt = '';

function planOf(target: unknown): ClassPlan | null {
  const storage = getMetadataStorage() as unknown as Storage;
  const sizes = `${storage.validationMetadatas.size}/${storage.constraintMetadatas.size}`;
  if (sizes !== readAt) {
    plans.clear();
    readAt = sizes;
  }
  let plan = plans.get(target);
  if (plan === undefined) {
    plan = readPlan(storage, target);
    plans.set(target, plan);
  }
  return plan;
}

/** The class's rules as the executor finds them with the pipe's options (no groups, `always` off); null when it has some this path does not run. */
function readPlan(storage: Storage, target: unknown): ClassPlan | null {
  if (typeof target !== 'function') return null;
  // Rules registered by schema name (registerSchema) match nested objects by name: left to the pipe.
  for (const key of storage.validationMetadatas.keys()) if (typeof key === 'string') return null;
  const metadatas = storage.getTargetValidationMetadatas(target, undefined, false, false, undefined);
  if (metadatas.some((m) => !RUN_HERE.has(m.type) || m.always !== undefined || (m.groups && m.groups.length > 0))) return null;
  const grouped = storage.groupByPropertyName(metadatas);
  const properties = Object.keys(grouped).map((name) => ({
    name,
    conditions: grouped[name].filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION).map((m) => m.constraints[0] as Condition),
    checks: grouped[name]
      .filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION)
      .map((metadata) => ({ metadata, constraints: storage.getTargetValidatorConstraints(metadata.constraintCls) })),
    nested: grouped[name].filter((m) => m.type === ValidationTypes.NESTED_VALIDATION).length,
  }));
  return { grouped, properties };
}

/** ValidationExecutor.execute of one object, true when it would find no problem; the fields whitelist drops are noted in `dropped`. */
function objectPasses(object: object, plan: ClassPlan, dropped: Array<[object, string]>): boolean {
  // The executor's whitelist test, word for word (a plain object's inherited names included).
  for (const key of Object.keys(object)) if (!plan.grouped[key] || plan.grouped[key].length === 0) dropped.push([object, key]);
  // The executor names the class in each rule's arguments; read once here instead of once a rule.
  const targetName = object.constructor ? object.constructor.name : (undefined as unknown as string);
  for (const property of plan.properties) {
    const value = (object as Record<string, unknown>)[property.name];
    // As the executor: every condition is asked, and any falsy one skips the field.
    let validated = true;
    for (const condition of property.conditions) validated = Boolean(condition(object, value)) && validated;
    if (!validated) continue;
    for (const check of property.checks) if (!checkPasses(object, targetName, value, check)) return false;
    if (value !== undefined) for (let i = 0; i < property.nested; i++) if (!nestedPasses(value, dropped)) return false;
  }
  return true;
}

/** ValidationExecutor.customValidations of one rule: a falsy answer, or a promise (an async rule), is for the pipe. */
function checkPasses(object: object, targetName: string, value: unknown, { metadata, constraints }: Check): boolean {
  if (metadata.validateIf && !metadata.validateIf(object, value)) return true;
  for (const constraint of constraints) {
    const args: ValidationArguments = {
      targetName,
      property: metadata.propertyName,
      object,
      value,
      constraints: metadata.constraints,
    };
    if (!metadata.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      const valid = constraint.instance.validate(value, args);
      if (!valid || isPromise(valid)) return false;
      continue;
    }
    const items: unknown[] = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value);
    const results = items.map((item) => constraint.instance.validate(item, args));
    if (results.some(isPromise) || !results.every(Boolean)) return false;
  }
  return true;
}

/** ValidationExecutor.nestedValidations: an object is validated by its class's rules, each item of a list so; anything else is a problem. */
function nestedPasses(value: unknown, dropped: Array<[object, string]>): boolean {
  if (value === undefined) return true;
  // The pipe answers a binary value here with its own error.
  if (isBinary(value)) return false;
  if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
    let passes = true;
    // forEach, as the executor: the gaps of an array are skipped.
    (value instanceof Set ? Array.from(value) : value).forEach((item: unknown) => {
      passes = passes && nestedPasses(item, dropped);
    });
    return passes;
  }
  if (!(value instanceof Object)) return false;
  const plan = planOf(value.constructor);
  return plan !== null && objectPasses(value, plan, dropped);
}

/** Arrays longer than this are left to the pipe's walks (a sparse one's length may be far beyond its items). */
const CLEAN_CHECK_MAX_ARRAY = 10_000;
/** Nesting deeper than this is left to the pipe's walks, which keep their own stack. */
const CLEAN_CHECK_MAX_DEPTH = 64;
const PROTOTYPE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Whether closeArrayGaps and stripProtoKeys would leave `value` as it is: plain objects and arrays
 * only (what JSON.parse makes), no array with a gap, no own `__proto__`, `prototype` or
 * `constructor` key. False whenever unsure, and then they run.
 */
function isCleanJson(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth > CLEAN_CHECK_MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || value.length > CLEAN_CHECK_MAX_ARRAY) return false;
    for (let index = 0; index < value.length; index++) {
      if (!(index in value) || !isCleanJson(value[index], depth + 1)) return false;
    }
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (PROTOTYPE_KEYS.has(key) || !Object.hasOwn(value, key)) return false;
    if (!isCleanJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function isPromise(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

function isBinary(value: unknown): boolean {
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}
