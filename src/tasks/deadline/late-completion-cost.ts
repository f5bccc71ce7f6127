import { providerCostUsd } from '../../billing/provider-cost';
import type { PriceBasis } from '../../billing/settlement';
import type { ProviderUsage } from '../../upstream/upstream-adapter';
import type { TaskCostInputs } from '../settlement/task-cost-inputs';

/**
 * What a task given up at its deadline cost the operator once its provider finished it anyway:
 * the provider's own figure (or its units at the channel's `usd_per_unit`); for a video it made,
 * else the route's `cost` at what was asked (the gateway never fetched it); a failure with no
 * report of the provider's costs nothing known. Null when unknown.
 */
export function lateCompletionCostUsd(
  state: 'succeeded' | 'failed',
  usage: ProviderUsage | null,
  asked: PriceBasis['asked'] | undefined,
  inputs: TaskCostInputs,
): number | null {
  const shape = state === 'succeeded' && asked ? { seconds: asked.seconds, resolution: asked.resolution, audio: asked.audio } : null;
  return providerCostUsd({ usage, usdPerUnit: inputs.usdPerUnit, routeCost: inputs.routeCost, shape, askedSeconds: asked?.seconds ?? 0 });
}
