import { DefaultPrice, perSecond } from '../../billing/default-prices';
import { OPENAI_SIMULATOR_MODELS } from './simulator/openai-simulator.module';

/**
 * Operators price the models they list like any other; these are OpenAI's last per-second rates for
 * Sora 2 (USD 0.10 / 0.30 / 0.50), and sora-2's for the simulator's model.
 */
export const OPENAI_DEFAULT_PRICES: DefaultPrice[] = [
  ...OPENAI_SIMULATOR_MODELS.flatMap((model) => perSecond(model, { '*': [10, null] })),
  ...perSecond('sora-2', { '*': [10, null] }),
  ...perSecond('sora-2-pro', { '*': [30, null], '1024x1792': [50, null], '1792x1024': [50, null] }),
];
