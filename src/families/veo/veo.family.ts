import { namedModels, singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { VEO_BUILTIN_ENTRIES } from './veo-catalog';
import type { VeoTaskRequest } from './veo-protocol';
import { VeoDrafts } from './veo-drafts.service';
import { VeoFamilyModule } from './veo-family.module';
import { VEO_DEFAULT_PRICES } from './veo-default-prices';
import { VEO_MODELS } from './veo-models';
import { OMNI_MODELS } from './omni-models';
import { VEO_EXAMPLES, VeoVideoRequestDto } from './veo-request.dto';
import { VeoUpstreamAdapter } from './veo-upstream.adapter';
import { VeoSimulatorModule } from './simulator/veo-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/**
 * Google's video on the Gemini API (platform `veo`): Veo over predictLongRunning and Gemini Omni over the
 * Interactions API, the wire chosen by the route's upstream model; the channel's api_key is the Gemini API key.
 */
export const VEO_FAMILY = defineFamily<VeoTaskRequest>({
  platform: 'veo',
  label: { en: 'Veo (Gemini API)', 'zh-CN': 'Veo（Gemini API）' },
  apiKeyFormat: singleTokenKey('AIza…'),
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  ...namedModels([...Object.keys(VEO_MODELS), ...Object.keys(OMNI_MODELS)], { anyCase: true }),
  request: { schema: VeoVideoRequestDto, examples: VEO_EXAMPLES },
  catalog: { defaultPrices: VEO_DEFAULT_PRICES, builtinEntries: VEO_BUILTIN_ENTRIES },
  nest: { module: VeoFamilyModule, drafts: VeoDrafts, adapter: VeoUpstreamAdapter },
  /** A done operation's google.rpc codes Google calls transient (INTERNAL, UNAVAILABLE, DEADLINE_EXCEEDED). */
  providerOwnFailure: ownFailureCodes(['INTERNAL', 'UNAVAILABLE', 'DEADLINE_EXCEEDED']),
  simulator: { module: VeoSimulatorModule },
});
