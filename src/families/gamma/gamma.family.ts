import { SIMULATOR_ACCESS_KEY, SIMULATOR_SECRET_KEY } from '../simulator-shared/simulator-credentials';
import { singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { GAMMA_BUILTIN_ENTRIES } from './gamma-catalog';
import type { GammaTaskRequest } from './gamma-protocol';
import { GAMMA_BUILTIN_MODELS, gammaBuiltinModelOf } from './gamma-builtin-models';
import { assertGammaChannelSettings, GAMMA_CHANNEL_SETTINGS } from './gamma-channel-settings';
import { GAMMA_DEFAULT_PRICES } from './gamma-default-prices';
import { GammaDrafts } from './gamma-drafts.service';
import { GammaFamilyModule } from './gamma-family.module';
import { GAMMA_PLATFORM } from './gamma-platform';
import { GAMMA_UNIFIED_EXAMPLES, GammaVideoRequestDto } from './gamma-request.dto';
import { GammaUpstreamAdapter } from './gamma-upstream.adapter';
import { GammaSimulatorModule } from './simulator/gamma-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/** Family C (`gamma-2-0*`): the unified form, with verified portrait assets. */
export const GAMMA_FAMILY = defineFamily<GammaTaskRequest>({
  platform: GAMMA_PLATFORM,
  label: { en: 'gamma (family C)', 'zh-CN': 'gamma（C 系）' },
  apiKeyFormat: singleTokenKey('<api_key>'),
  settings: GAMMA_CHANNEL_SETTINGS,
  models: GAMMA_BUILTIN_MODELS,
  publicModel: gammaBuiltinModelOf,
  modelPrefix: 'gamma-',
  forms: ['unified'],
  request: { schema: GammaVideoRequestDto, examples: { unified: GAMMA_UNIFIED_EXAMPLES } },
  takesVerifiedAssets: true,
  catalog: { defaultPrices: GAMMA_DEFAULT_PRICES, builtinEntries: GAMMA_BUILTIN_ENTRIES },
  modelIdKey: (name) => name.toLowerCase(),
  nest: { module: GammaFamilyModule, drafts: GammaDrafts, adapter: GammaUpstreamAdapter },
  /** The provider's internal error, and a task it expired. */
  providerOwnFailure: ownFailureCodes(['InternalServiceError', 'InternalServiceError.*'], { timeouts: true }),
  simulator: {
    module: GammaSimulatorModule,
    // The signed control plane (verification) has its own fake beside the data plane.
    channelSettings: (root) => ({
      control_base_url: `${root}/gamma-control`,
      access_key: SIMULATOR_ACCESS_KEY,
      secret_key: SIMULATOR_SECRET_KEY,
    }),
  },
  assertChannelSettings: assertGammaChannelSettings,
});
