import { namedModels, singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { BETA_BUILTIN_ENTRIES } from './beta-catalog';
import type { BetaTaskRequest } from './beta-request';
import { BETA_DEFAULT_PRICES } from './beta-default-prices';
import { BetaDrafts } from './beta-drafts.service';
import { BetaFamilyModule } from './beta-family.module';
import { BETA_BUILTIN_MODELS } from './beta-builtin-models';
import { BETA_EXAMPLES, BetaVideoRequestDto } from './beta-request.dto';
import { BetaUpstreamAdapter } from './beta-upstream.adapter';
import { BetaSimulatorModule } from './simulator/beta-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/** Family B (`beta-1.0-*`): one task behind both forms. */
export const BETA_FAMILY = defineFamily<BetaTaskRequest>({
  platform: 'beta',
  label: { en: 'beta (family B)', 'zh-CN': 'beta（B 系）' },
  apiKeyFormat: singleTokenKey('<api_key>'),
  multipartMetadata: { numbers: ['seed'], booleans: ['watermark'] },
  ...namedModels(Object.keys(BETA_BUILTIN_MODELS), { anyCase: true }),
  modelPrefix: 'beta-',
  request: { schema: BetaVideoRequestDto, examples: BETA_EXAMPLES },
  catalog: { defaultPrices: BETA_DEFAULT_PRICES, builtinEntries: BETA_BUILTIN_ENTRIES },
  nest: { module: BetaFamilyModule, drafts: BetaDrafts, adapter: BetaUpstreamAdapter },
  /** The provider's internal errors (its 5xx family); never DataInspection or InvalidParameter. */
  providerOwnFailure: ownFailureCodes(['InternalError', 'InternalError.*']),
  simulator: { module: BetaSimulatorModule },
});
