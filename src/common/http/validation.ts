import { applyDecorators, ArgumentMetadata, Injectable, PipeTransform, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { buildMessage, IsInt, IsNumber, Max, Min, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { AppError, type FieldProblem } from '../errors/app-error';
import { instanceIfValid } from './body-rules-fast-path';

/**
 * Checks of a value's presence and type: when one fails, the range checks after it say nothing useful.
 * A container's own type comes first: `images: null` is "must be an array", not "each value ... must be a string";
 * a number's before its integer range: `duration: [5]` is "must be an integer", not "between 3 and 15".
 */
const BASIC_CONSTRAINTS = ['isRequired', 'isDefined', 'isArray', 'isObject', 'isString', 'isNumber', 'isInt', 'isBoolean', 'isIn'];

/** Each bad field of a request, in the order of its fields: its dotted path and the message naming it. */
function problemsOf(errors: ValidationError[], prefix = '', parent?: ValidationError): FieldProblem[] {
  return errors.flatMap((error) => {
    // An array's elements come as children named by their index (no schema names a field so):
    // `metadata.input.media[0]`; class-validator's message about an element names the array.
    const element = parent !== undefined && /^\d+$/.test(error.property);
    const field = element ? `${prefix}[${error.property}]` : prefix ? `${prefix}.${error.property}` : error.property;
    const named = element ? parent.property : error.property;
    if (error.constraints) {
      // class-validator lists the last decorator first: a missing field would read "must be shorter than 2048 characters".
      const basic = BASIC_CONSTRAINTS.find((name) => error.constraints![name]);
      const message = basic ? error.constraints[basic] : Object.values(error.constraints)[0];
      // class-validator names the property; make it the full dotted path.
      return [{ param: field, message: message.startsWith(named) ? field + message.slice(named.length) : message }];
    }
    return error.children?.length ? problemsOf(error.children, field, error) : [];
  });
}

/** Client input: the first problem, a 400 naming its field (what the interface's error shape carries). */
const firstProblemError = (errors: ValidationError[]) => {
  const [first] = problemsOf(errors);
  return AppError.invalid(first?.message ?? 'invalid request', first?.param ?? '');
};

/** Admin input: a 400 naming every bad field (the first as `param`, all of them as `fields`). */
const everyProblemError = (errors: ValidationError[]) => {
  const problems = problemsOf(errors);
  return problems.length > 0 ? AppError.invalidFields(problems) : AppError.invalid('invalid request', '');
};

/** Admin input: unknown fields are an error. */
const strictValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: everyProblemError,
});

/** Client input that SDKs send extras in: unknown fields are dropped, known ones are checked. */
const lenientValidationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: false,
  transform: true,
  exceptionFactory: firstProblemError,
});

const TOLERATES_UNKNOWN_FIELDS = Symbol('toleratesUnknownFields');

/**
 * On a client-facing request DTO: unknown fields are dropped instead of refused (SDKs and older
 * clients send fields this gateway does not take). Every other DTO refuses them.
 */
export const ToleratesUnknownFields = (): ClassDecorator => (target) => Reflect.defineMetadata(TOLERATES_UNKNOWN_FIELDS, true, target);

/**
 * The one pipe of every body, query and param of every route (APP_PIPE): a DTO class is checked
 * (whitelist, transform, the first problem a 400 naming the dotted field), strictly unless the class
 * says `@ToleratesUnknownFields()`. A new controller is validated without anyone remembering to.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const lenient = metadata.metatype !== undefined && Reflect.getMetadata(TOLERATES_UNKNOWN_FIELDS, metadata.metatype) === true;
    return (lenient ? lenientValidationPipe : strictValidationPipe).transform(value, metadata);
  }
}

/**
 * The one way a request body that a family reads becomes a validated instance of its schema class
 * (the class Swagger documents): unknown fields dropped, types never coerced, the first problem a
 * 400 naming the dotted field. Rules across fields stay with the family, after this.
 */
export async function validBody<T extends object>(schema: Type<T>, body: Record<string, unknown>): Promise<T> {
  // A body that passes takes the fast path; every other one the pipe, which makes its 400.
  return instanceIfValid(schema, body) ?? ((await lenientValidationPipe.transform(body, { type: 'body', metatype: schema })) as T);
}

/**
 * Like `@IsOptional()`, but only a missing field is absent: JSON `null` is not a value of any type
 * the interface lists, so it meets the field's type check (`image must be a string`).
 */
export const IsOptionalNotNull = (options?: ValidationOptions) => ValidateIf((_object, value) => value !== undefined, options);

/**
 * Like `IsOptionalNotNull`, and an empty string is absent too: what an empty form field sends, and
 * what the family B and C schemas have always taken for "not given".
 */
export const IsOptionalOrEmpty = (options?: ValidationOptions) =>
  ValidateIf((_object, value) => value !== undefined && value !== '', options);

/**
 * A required text: missing, empty or blank is `<field> is required` (ahead of any other rule of the
 * field); present, it must still be a string (`null` is `<field> must be a string`). Pair with `@IsString()`.
 */
export function IsRequired(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isRequired',
      validator: {
        validate: (value: unknown) => value !== undefined && !(typeof value === 'string' && value.trim() === ''),
        defaultMessage: buildMessage((each) => `${each}$property is required`, options),
      },
    },
    options,
  );
}

/**
 * A JSON integer from `min` to `max`: another type is `<field> must be an integer`; a fraction or a
 * number out of range is `message` (the interface's wording, e.g. "between 3 and 15 (seconds)").
 */
export const IntegerBetween = (min: number, max: number, message: string) =>
  applyDecorators(
    IsNumber({}, { message: '$property must be an integer' }),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );

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
            count(args?.value) < min
              ? `${each}$property must be longer than or equal to $constraint1 characters`
              : `${each}$property must be shorter than or equal to $constraint2 characters`,
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
        defaultMessage: (args) => utf16LengthMessage(String(args?.property), String(args?.value ?? ''), max),
      },
    },
    options,
  );
}

/** What `@MaxUtf16Length` says of a text over `max` UTF-16 units; for a limit known only at run time (a model's catalog entry). */
export function utf16LengthMessage(field: string, value: string, max: number): string {
  const note =
    [...value].length <= max
      ? ` (the provider counts an emoji or other character outside the Basic Multilingual Plane as 2; this prompt counts ${value.length})`
      : '';
  return `${field} must be at most ${max} characters${note}`;
}
