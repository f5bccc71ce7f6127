import { singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { OPENAI_BUILTIN_ENTRIES, openAiChannelModelCapabilities } from './openai-catalog';
import type { OpenAiTaskRequest } from './openai-protocol';
import { OPENAI_DEFAULT_PRICES } from './openai-default-prices';
import { OpenAiDrafts } from './openai-drafts.service';
import { OpenAiFamilyModule } from './openai-family.module';
import { OPENAI_FLAT_EXAMPLES, OpenAiVideoRequestDto } from './openai-request.dto';
import { OpenAiUpstreamAdapter } from './openai-upstream.adapter';
import { OPENAI_SIMULATOR_MODELS, OpenAiSimulatorModule } from './simulator/openai-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/**
 * Family O (platform `openai`): any OpenAI-compatible Videos API. Its public models are the ones
 * operators list on its channels (`model_mapping` names the upstream's); a name another family
 * owns stays that family's.
 */
export const OPENAI_FAMILY = defineFamily<OpenAiTaskRequest>({
  platform: 'openai',
  label: { en: 'openai (family O)', 'zh-CN': 'openai（O 系）' },
  apiKeyFormat: singleTokenKey('sk-…'),
  defaultBaseUrl: 'https://api.openai.com/v1',
  models: OPENAI_SIMULATOR_MODELS,
  publicModel: () => null,
  modelsFromChannels: true,
  channelModelCapabilities: openAiChannelModelCapabilities,
  forms: ['flat'],
  request: { schema: OpenAiVideoRequestDto, examples: { flat: OPENAI_FLAT_EXAMPLES } },
  catalog: { defaultPrices: OPENAI_DEFAULT_PRICES, builtinEntries: OPENAI_BUILTIN_ENTRIES },
  modelIdKey: (name) => name.toLowerCase(),
  nest: { module: OpenAiFamilyModule, drafts: OpenAiDrafts, adapter: OpenAiUpstreamAdapter },
  /** A failed video's server-side error codes; never moderation_blocked or bad input. */
  providerOwnFailure: ownFailureCodes(['server_error', 'internal_error']),
  simulator: { module: OpenAiSimulatorModule },
});
