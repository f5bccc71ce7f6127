import { PUSH_SETTING } from '../shared/push-settings';
import { oneRouteOption, singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { MINIMAX_BUILTIN_ENTRIES } from './minimax-catalog';
import type { MinimaxTaskRequest } from './minimax-protocol';
import { MINIMAX_DEFAULT_PRICES } from './minimax-default-prices';
import { MinimaxDrafts } from './minimax-drafts.service';
import { MinimaxFamilyModule } from './minimax-family.module';
import { MINIMAX_APIS, MINIMAX_MODEL_IDS, MINIMAX_API_OPTION, type MinimaxApi, minimaxPublicModel } from './minimax-models';
import { MINIMAX_EXAMPLES, MinimaxVideoRequestDto } from './minimax-request.dto';
import { MinimaxUpstreamAdapter } from './minimax-upstream.adapter';
import { MinimaxSimulatorModule } from './simulator/minimax-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/**
 * MiniMax (platform `minimax`): the channel's `api_key` is the MiniMax API key (Bearer). Hailuo on the
 * v1 video API, MiniMax-H3 on v2: a route's `api` option, else its upstream id, picks the API.
 */
export const MINIMAX_FAMILY = defineFamily<MinimaxTaskRequest>({
  platform: 'minimax',
  settings: [PUSH_SETTING],
  label: { en: 'MiniMax Hailuo', 'zh-CN': 'MiniMax 海螺' },
  apiKeyFormat: singleTokenKey('<api_key>'),
  defaultBaseUrl: 'https://api.minimax.io',
  multipartMetadata: { booleans: ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'] },
  models: MINIMAX_MODEL_IDS,
  publicModel: minimaxPublicModel,
  modelPrefix: 'minimax-',
  request: { schema: MinimaxVideoRequestDto, examples: MINIMAX_EXAMPLES },
  catalog: { defaultPrices: MINIMAX_DEFAULT_PRICES, builtinEntries: MINIMAX_BUILTIN_ENTRIES },
  // `api`: the wire, where the upstream id does not say it (MiniMax-H… v2, the rest v1).
  ...oneRouteOption('MiniMax', MINIMAX_API_OPTION, (value) => MINIMAX_APIS.includes(value as MinimaxApi), 'api must be "v1" or "v2"'),
  modelIdKey: (name) => name.toLowerCase(),
  nest: { module: MinimaxFamilyModule, drafts: MinimaxDrafts, adapter: MinimaxUpstreamAdapter },
  /** MiniMax's unknown error, request timeout, internal error, system error: "retry" in its error code table. */
  providerOwnFailure: ownFailureCodes(['1000', '1001', '1024', '1033']),
  simulator: { module: MinimaxSimulatorModule },
});
