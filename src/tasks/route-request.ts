import type { SubmitForm, SubmitInput } from '../families/family';

/** The client's request as the family schemas read it (the body without the fields other modules take), and the form it came by. */
export interface RouteRequest {
  form: SubmitForm;
  body: Record<string, unknown>;
}

/** Larger bodies (inline images) are not kept twice: a retry of such a task stays on its platform. */
export const ROUTE_REQUEST_MAX_BYTES = 60_000;

/**
 * What a task of a model with several routes keeps of its request, so that a provider retry on
 * another platform can build that platform's request; null when it cannot be rebuilt from the body
 * alone (a multipart file part) or is too large to keep.
 */
export function routeRequestOf(input: SubmitInput, familyBody: Record<string, unknown>): RouteRequest | null {
  if (input.inputReferenceFile) return null;
  const kept: RouteRequest = { form: input.form, body: familyBody };
  return Buffer.byteLength(JSON.stringify(kept)) <= ROUTE_REQUEST_MAX_BYTES ? kept : null;
}
