import { capStoredResponse, compact } from '../../upstream/provider-text';

/**
 * What a task keeps of a provider's answer (`upstream_response`): the fields its family picked
 * that the answer had (`{}` when none), cut to the stored size.
 */
export function storedAnswer(fields: Record<string, unknown>): unknown {
  return capStoredResponse(compact(fields) ?? {});
}
