import type { Type } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { validBody } from '../../common/http/validation';
import type { SubmitInput, UploadedPart } from '../family';

/**
 * A multipart submit's `input_reference` file part, or the `input_reference` field: never both,
 * since which one would win is no rule a client could guess. One rule for every family that takes both.
 */
export function assertOneInputReference(hasFile: boolean, field: unknown): void {
  if (hasFile && field !== undefined) throw AppError.invalid('input_reference is given twice (a file part and a field)', 'input_reference');
}

/** A body its schema passed, and its first frame: the `input_reference` file part or field, if either was sent. */
export interface BodyWithFirstFrame<T> {
  body: T;
  firstFrame: UploadedPart | string | undefined;
}

/**
 * `fields` (the submit's body, or the family's reading of its multipart strings) checked against
 * `schema`, then its first frame, refused when it came both as a file part and as a field.
 */
export async function validBodyWithFirstFrame<T extends { input_reference?: string }>(
  schema: Type<T>,
  input: SubmitInput,
  fields: Record<string, unknown> = input.body,
): Promise<BodyWithFirstFrame<T>> {
  const body = await validBody(schema, fields);
  assertOneInputReference(input.inputReferenceFile !== undefined, body.input_reference);
  return { body, firstFrame: input.inputReferenceFile ?? body.input_reference };
}

/**
 * A submit's fields as a family's schema reads them: a multipart field is always a string, so on the
 * flat form `booleans` that spell true or false become them, `integers` that spell a whole number
 * (up to 10 digits) become it, and a single `lists` field a list of one.
 */
export function typedMultipartFields(
  input: SubmitInput,
  kinds: { booleans?: readonly string[]; integers?: readonly string[]; lists?: readonly string[] },
): Record<string, unknown> {
  if (input.form !== 'flat') return input.body;
  const body = { ...input.body };
  for (const key of kinds.booleans ?? []) if (body[key] === 'true' || body[key] === 'false') body[key] = body[key] === 'true';
  for (const key of kinds.integers ?? []) {
    const value = body[key];
    if (typeof value === 'string' && /^\d{1,10}$/.test(value.trim())) body[key] = Number(value);
  }
  for (const key of kinds.lists ?? []) if (typeof body[key] === 'string') body[key] = [body[key]];
  return body;
}
