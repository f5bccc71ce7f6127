import { ownValue } from '../../common/runtime/own-value';
import type { FamilyDefinition } from '../family';
import type { KlingTaskRequest } from './kling-protocol';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_SECRET_KEY } from '../simulator-shared/simulator-credentials';
import { KLING_DEFAULT_PRICES } from './kling-default-prices';
import { KlingDrafts } from './kling-drafts.service';
import { KlingFamilyModule } from './kling-family.module';
import { KLING_MODELS } from './kling-models';
import { KLING_EXAMPLES, KlingVideoRequestDto } from './kling-request.dto';
import { KlingUpstreamAdapter } from './kling-upstream.adapter';
import { KlingSimulatorModule } from './simulator/kling-simulator.module';

/** Kling (platform `kling`): the channel's api_key is `<access_key>:<secret_key>`, signed into a JWT per call. */
export const KLING_FAMILY: FamilyDefinition<KlingTaskRequest> = {
  platform: 'kling',
  label: { en: 'Kling', 'zh-CN': '可灵 Kling' },
  settings: [],
  models: Object.keys(KLING_MODELS),
  publicModel: (name) => (ownValue(KLING_MODELS, name.toLowerCase()) ? name.toLowerCase() : null),
  modelPrefix: 'kling-',
  forms: ['flat', 'unified'],
  request: { schema: KlingVideoRequestDto, examples: KLING_EXAMPLES },
  defaultPrices: KLING_DEFAULT_PRICES,
  module: KlingFamilyModule,
  drafts: KlingDrafts,
  adapter: KlingUpstreamAdapter,
  simulator: { module: KlingSimulatorModule, apiKey: `${SIMULATOR_ACCESS_KEY}:${SIMULATOR_SECRET_KEY}` },
};
