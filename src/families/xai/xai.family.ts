import { namedModels, noRouteOptions } from '../family';
import { defineFamily } from '../shared/define-family';
import { XAI_BUILTIN_ENTRIES } from './xai-catalog';
import { XAI_DEFAULT_PRICES } from './xai-default-prices';
import { XaiDrafts } from './xai-drafts.service';
import { XaiFamilyModule } from './xai-family.module';
import { XAI_API_KEY_FORMAT, XAI_SIMULATOR_KEY } from './xai-key';
import { XAI_MODELS } from './xai-models';
import type { XaiTaskRequest } from './xai-protocol';
import { XAI_EXAMPLES, XaiVideoRequestDto } from './xai-request.dto';
import { XaiUpstreamAdapter } from './xai-upstream.adapter';
import { XaiSimulatorModule } from './simulator/xai-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/** xAI (platform `xai`): Grok Imagine video; the channel's api_key is the xAI key, sent as Bearer. */
export const XAI_FAMILY = defineFamily<XaiTaskRequest>({
  platform: 'xai',
  label: { en: 'xAI Grok Imagine', 'zh-CN': 'xAI Grok Imagine' },
  defaultBaseUrl: 'https://api.x.ai',
  apiKeyFormat: XAI_API_KEY_FORMAT,
  ...namedModels(Object.keys(XAI_MODELS)),
  request: { schema: XaiVideoRequestDto, examples: XAI_EXAMPLES },
  catalog: { defaultPrices: XAI_DEFAULT_PRICES, builtinEntries: XAI_BUILTIN_ENTRIES },
  // xAI's route takes no options of its own.
  checkRouteOptions: noRouteOptions('an xAI'),
  nest: { module: XaiFamilyModule, drafts: XaiDrafts, adapter: XaiUpstreamAdapter },
  /** xAI's `internal_error` (its SDK's VideoError codes), and a request it expired. */
  providerOwnFailure: ownFailureCodes(['internal_error'], { timeouts: true }),
  simulator: { module: XaiSimulatorModule, apiKey: XAI_SIMULATOR_KEY },
});
