/**
 * The failure vocabulary of the interface document ("Task failure"), one for every family: a
 * reason starts with its category, then, after `: `, the provider's code and its documented
 * meaning (never the provider's message). The flat form's `error.code` is the category alone.
 */
export const FAILURE = {
  moderation: 'content moderation failed',
  generation: 'generation failed',
  timeout: 'upstream timeout',
  /** The client cancelled the task (POST .../cancel). */
  cancelled: 'cancelled by the client',
} as const;

export type FailureCategory = (typeof FAILURE)[keyof typeof FAILURE];
export type FailureCode = 'content_moderation_failed' | 'generation_failed' | 'upstream_timeout' | 'cancelled';

const CODES: ReadonlyArray<[FailureCategory, FailureCode]> = [
  [FAILURE.moderation, 'content_moderation_failed'],
  [FAILURE.generation, 'generation_failed'],
  [FAILURE.timeout, 'upstream_timeout'],
  [FAILURE.cancelled, 'cancelled'],
];

/** `generation failed: InternalError.Algo: provider internal error`; details that are absent are left out. */
export function failureReason(category: FailureCategory, ...details: Array<string | undefined>): string {
  return [category, ...details.filter((detail): detail is string => !!detail)].join(': ');
}

/** The category's code of a stored reason; `generation_failed` for a reason outside the vocabulary. */
export function failureCode(reason: string | null | undefined): FailureCode {
  const text = (reason ?? '').trim().toLowerCase();
  return CODES.find(([category]) => text.startsWith(category))?.[1] ?? 'generation_failed';
}
