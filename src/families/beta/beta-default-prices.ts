import { DefaultPrice, perSecond } from '../../billing/default-prices';
import { BETA_BUILTIN_MODELS } from './beta-builtin-models';

/** The protocol document lists no prices: the provider's public per-second rates, rounded. */
export const BETA_DEFAULT_PRICES: DefaultPrice[] = Object.keys(BETA_BUILTIN_MODELS).flatMap((model) =>
  perSecond(model, { '720p': [10, null], '1080p': [15, null] }),
);
