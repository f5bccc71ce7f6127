import { AppError } from '../common/errors/app-error';
import type { SubmitInput } from '../families/family';

/** A unified-form body as the submit pipeline takes it: a JSON object, read as sent. */
export function unifiedSubmitInput(body: unknown): SubmitInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AppError.invalid('request body must be a JSON object');
  return { form: 'unified', body: body as Record<string, unknown>, warnings: [] };
}
