import { ValidationError, ValidationPipe } from '@nestjs/common';
import { buildMessage, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { AppError } from './app-error';

/**
 * Checks of a value's presence and type: when one fails, the range checks after it say nothing useful.
 * A container's own type comes first: `images: null` is "must be an array", not "each value ... must be a string".
 */
const BASIC_CONSTRAINTS = ['isDefined', 'isArray', 'isObject', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isIn'];

function firstProblem(errors: ValidationError[], prefix = ''): { field: string; message: string } {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      // class-validator lists the last decorator first: a missing field would read "must be shorter than 2048 characters".
      const basic = BASIC_CONSTRAINTS.find((name) => error.constraints![name]);
      const message = basic ? error.constraints[basic] : Object.values(error.constraints)[0];
      // class-validator names the property; make it the full dotted path.
      return { field, message: message.startsWith(error.property) ? field + message.slice(error.property.length) : message };
    }
    if (error.children?.length) return firstProblem(error.children, field);
  }
  return { field: prefix, message: 'invalid request' };
}

const exceptionFactory = (errors: ValidationError[]) => {
  const { field, message } = firstProblem(errors);
  return AppError.invalid(message, field);
};

/** Admin input: unknown fields are an error. */
export const strictValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory,
});

/** Client video submits: unknown fields are dropped (SDKs send extras), known ones are checked. */
export const lenientValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: false,
  transform: true,
  exceptionFactory,
});

/**
 * Like `@IsOptional()`, but only a missing field is absent: JSON `null` is not a value of any type
 * the interface lists, so it meets the field's type check (`image must be a string`).
 */
export const IsOptionalNotNull = (options?: ValidationOptions) => ValidateIf((_object, value) => value !== undefined, options);

/**
 * `@Length` as a VARCHAR column counts: in code points. (class-validator's `@Length` does not count
 * U+FE0E/U+FE0F, which MySQL does, so a 65-character value passed and the insert failed.)
 */
export function ColumnLength(min: number, max: number, options?: ValidationOptions) {
  const count = (value: unknown) => (typeof value === 'string' ? [...value].length : -1);
  return ValidateBy(
    {
      name: 'columnLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => count(value) >= min && count(value) <= max,
        defaultMessage: buildMessage(
          (each, args) =>
            count(args?.value) < min ? `${each}$property must be longer than or equal to $constraint1 characters` : `${each}$property must be shorter than or equal to $constraint2 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/** The largest integer of the providers' `int` fields (a signed 32-bit integer). */
export const MAX_INT32 = 2147483647;

/**
 * A string of at most `max` UTF-16 code units: what the providers count (JavaScript's and Java's
 * `length`), so an emoji counts 2. Counting code points instead would pass prompts the provider refuses.
 */
export function MaxUtf16Length(max: number, options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'maxUtf16Length',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value.length <= max,
        defaultMessage: (args) => {
          const value = String(args?.value ?? '');
          const note = [...value].length <= max ? ` (the provider counts an emoji or other character outside the Basic Multilingual Plane as 2; this prompt counts ${value.length})` : '';
          return `${args?.property} must be at most ${max} characters${note}`;
        },
      },
    },
    options,
  );
}

/** The JSON types of the interface's fields; `integer` also takes the decimal text a form field sends. */
export type JsonKind = 'string' | 'integer' | 'boolean' | 'object' | 'array';

/** Field -> its kind, or a nested object's own fields, or [kind, how the 400 describes it]. */
export interface BodyShape {
  [field: string]: JsonKind | [JsonKind, string] | BodyShape;
}

const KIND_DESCRIPTIONS: Record<JsonKind, string> = {
  string: 'a string',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function hasKind(value: unknown, kind: JsonKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    // Whole-number and range checks stay with each field's own rule (and its message).
    case 'integer':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value));
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false';
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
  }
}

/**
 * The one type check of a hand-parsed body, done before anything reads it: every field the shape
 * names, when present, has its JSON type (400 naming the dotted field otherwise). A missing field
 * and an empty form field are absent; `null` is present and of no type. Unknown fields are left alone.
 */
export function assertBodyShape(body: Record<string, unknown>, shape: BodyShape, prefix = ''): void {
  for (const [name, rule] of Object.entries(shape)) {
    const value = body[name];
    if (value === undefined || value === '') continue;
    const field = prefix ? `${prefix}.${name}` : name;
    const [kind, description] = Array.isArray(rule) ? rule : typeof rule === 'string' ? [rule, KIND_DESCRIPTIONS[rule]] : (['object', KIND_DESCRIPTIONS.object] as const);
    if (!hasKind(value, kind)) throw AppError.invalid(`${field} must be ${description}`, field);
    if (typeof rule === 'object' && !Array.isArray(rule)) assertBodyShape(value as Record<string, unknown>, rule, field);
  }
}

/** The `model` of a hand-parsed body: the one field every surface reads first, to route the body. */
export function modelOf(body: Record<string, unknown>): string {
  const model = body.model;
  if (model === undefined || model === null || (typeof model === 'string' && model.trim() === '')) throw AppError.invalid('model is required', 'model');
  if (typeof model !== 'string') throw AppError.invalid('model must be a string', 'model');
  return model;
}
