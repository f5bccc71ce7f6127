import { FAILURE } from './failure-reason';

/**
 * Whether a failed task's stored reason (`generation failed: INTERNAL: provider internal error`) is
 * the provider's own fault, so the task may run again on another channel (TASK_PROVIDER_RETRIES).
 * Never moderation, never the client's input: a family says yes only for codes it documents as such.
 */
export type ProviderOwnFailure = (reason: string) => boolean;

/** The provider's code a reason names: the part after its category (`INTERNAL` above); null when it names none. */
export function providerCodeOfReason(reason: string): string | null {
  const [category, code] = reason.split(': ');
  if (category !== FAILURE.generation || !code) return null;
  return code;
}

/**
 * The rule of a family whose provider names its failures by code: `codes` (exact, or `PREFIX.*` for a
 * code and its sub-codes) are its own. With `timeouts`, a timeout the provider reported (`upstream
 * timeout: ...`, not the gateway's own bare TASK_TIMEOUT_MS reason) is its own too.
 */
export function ownFailureCodes(codes: readonly string[], options: { timeouts?: boolean } = {}): ProviderOwnFailure {
  const exact = new Set(codes.filter((code) => !code.endsWith('.*')));
  const prefixes = codes.filter((code) => code.endsWith('.*')).map((code) => code.slice(0, -1));
  return (reason) => {
    if (options.timeouts && reason.startsWith(`${FAILURE.timeout}: `)) return true;
    const code = providerCodeOfReason(reason);
    return code !== null && (exact.has(code) || prefixes.some((prefix) => code.startsWith(prefix)));
  };
}
