import type { SettledAs } from '../billing/settlement';
import type { ProviderUsage } from '../upstream/upstream-adapter';

/**
 * What an ended task was settled at, as every answer carries it (`usage`): what was delivered (or,
 * settled as asked, what was asked), what the customer paid for it in quota and in the operator's
 * currency. A failed or cancelled task: nothing delivered, nothing paid, `settled: "refunded"`.
 */
export interface TaskUsage {
  seconds: number;
  resolution: string | null;
  audio: boolean;
  quota: number;
  usd: number;
  settled: SettledAs | 'refunded';
}

/** A completion the provider reported after the gateway gave the task up at its deadline (the customer stays refunded). */
export interface LateCompletion {
  /** When the gateway learnt it (ms). */
  at: number;
  state: 'succeeded' | 'failed';
  providerUsage: ProviderUsage | null;
  /** What it cost the operator in USD (lateCompletionCostUsd), also kept in the task's `provider_cost_micro_usd`; null when unknown (absent on older rows). */
  providerCostUsd?: number | null;
}
