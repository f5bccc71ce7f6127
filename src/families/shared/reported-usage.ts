import type { ProviderUsage } from '../../upstream/upstream-adapter';

/** What a task cost the provider account in its own `unit`, when the provider reported it as a number of at least 0. */
export function reportedUsage(unit: ProviderUsage['unit'], amount: unknown): ProviderUsage | undefined {
  return typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? { unit, amount } : undefined;
}
