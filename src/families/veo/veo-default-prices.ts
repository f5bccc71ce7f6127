import { DefaultPrice, perSecond } from '../../billing/default-prices';
import { VEO_SIMULATOR_MODEL } from './veo-models';

/**
 * Google's Gemini API list prices per second of video (with audio): Veo 3.1 USD 0.40 (4k 0.60),
 * Veo 3.1 Fast 0.15 (4k 0.35), Veo 3 0.40, Veo 3 Fast 0.15; in credits of 0.01 USD.
 */
export const VEO_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('veo-3.1-generate-preview', { '*': [40, null], '4k': [60, null] }),
  ...perSecond('veo-3.1-fast-generate-preview', { '*': [15, null], '4k': [35, null] }),
  ...perSecond('veo-3.0-generate-001', { '*': [40, null] }),
  ...perSecond('veo-3.0-fast-generate-001', { '*': [15, null] }),
  // The simulator's model, at Veo 3.1 Fast's prices.
  ...perSecond(VEO_SIMULATOR_MODEL, { '*': [15, null], '4k': [35, null] }),
  // Gemini Omni is billed in output tokens: 5,792 a second of 720p video at USD 17.50 per million, about USD 0.10 a second
  // (Google's pricing page); Runway sells the same model at 10 credits a second. 1.2's token rate is unpublished: the same.
  ...perSecond('gemini-omni-flash', { '*': [10, null] }),
  ...perSecond('gemini-omni-1.2-flash', { '*': [10, null] }),
];
