import { namedModels, singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { VEO_BUILTIN_ENTRIES } from './veo-catalog';
import type { VeoTaskRequest } from './veo-protocol';
import { VeoDrafts } from './veo-drafts.service';
import { VeoFamilyModule } from './veo-family.module';
import { VEO_DEFAULT_PRICES } from './veo-default-prices';
import { VEO_MODELS } from './veo-models';
import { VEO_EXAMPLES, VeoVideoRequestDto } from './veo-request.dto';
import { VeoUpstreamAdapter } from './veo-upstream.adapter';
import { VeoSimulatorModule } from './simulator/veo-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/** Veo through the Gemini API (platform `veo`): the channel's api_key is the Gemini API key. */
export const VEO_FAMILY = defineFamily<VeoTaskRequest>({
  platform: 'veo',
  label: { en: 'Veo (Gemini API)', 'zh-CN': 'Veo（Gemini API）' },
  apiKeyFormat: singleTokenKey('AIza…'),
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  ...namedModels(Object.keys(VEO_MODELS), { anyCase: true }),
  modelPrefix: 'veo-',
  request: { schema: VeoVideoRequestDto, examples: VEO_EXAMPLES },
  catalog: { defaultPrices: VEO_DEFAULT_PRICES, builtinEntries: VEO_BUILTIN_ENTRIES },
  nest: { module: VeoFamilyModule, drafts: VeoDrafts, adapter: VeoUpstreamAdapter },
  /** A done operation's google.rpc codes Google calls transient (INTERNAL, UNAVAILABLE, DEADLINE_EXCEEDED). */
  providerOwnFailure: ownFailureCodes(['INTERNAL', 'UNAVAILABLE', 'DEADLINE_EXCEEDED']),
  simulator: { module: VeoSimulatorModule },
});
