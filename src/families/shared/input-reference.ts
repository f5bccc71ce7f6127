import { AppError } from '../../common/errors/app-error';

/**
 * A multipart submit's `input_reference` file part, or the `input_reference` field: never both,
 * since which one would win is no rule a client could guess. One rule for every family that takes both.
 */
export function assertOneInputReference(hasFile: boolean, field: unknown): void {
  if (hasFile && field !== undefined) throw AppError.invalid('input_reference is given twice (a file part and a field)', 'input_reference');
}
