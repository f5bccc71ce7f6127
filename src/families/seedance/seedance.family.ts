import { ownFailureCodes } from '../../upstream/provider-own-failure';
import { namedModels, noRouteOptions } from '../family';
import { defineFamily } from '../shared/define-family';
import { PUSH_SETTING } from '../shared/push-settings';
import { SEEDANCE_BUILTIN_ENTRIES } from './seedance-catalog';
import { SEEDANCE_DEFAULT_PRICES } from './seedance-default-prices';
import { SeedanceDrafts } from './seedance-drafts.service';
import { SeedanceFamilyModule } from './seedance-family.module';
import { SEEDANCE_API_KEY_FORMAT, SEEDANCE_MODELS } from './seedance-models';
import type { SeedanceTaskRequest } from './seedance-protocol';
import { SEEDANCE_EXAMPLES, SeedanceVideoRequestDto } from './seedance-request.dto';
import { SeedanceUpstreamAdapter } from './seedance-upstream.adapter';
import { SeedanceSimulatorModule } from './simulator/seedance-simulator.module';

/**
 * Seedance (ByteDance, platform `seedance`) over BytePlus ModelArk or Volcengine Ark: the same API on
 * two hosts, the channel's base_url chooses; the channel's api_key is the Ark key, sent as Bearer.
 */
export const SEEDANCE_FAMILY = defineFamily<SeedanceTaskRequest>({
  platform: 'seedance',
  settings: [PUSH_SETTING],
  label: { en: 'Seedance (BytePlus / Volcengine)', 'zh-CN': '即梦 Seedance（火山方舟 / BytePlus）' },
  defaultBaseUrl: 'https://ark.ap-southeast.bytepluses.com',
  apiKeyFormat: SEEDANCE_API_KEY_FORMAT,
  multipartMetadata: { booleans: ['watermark', 'camera_fixed', 'return_last_frame'] },
  ...namedModels(Object.keys(SEEDANCE_MODELS)),
  request: { schema: SeedanceVideoRequestDto, examples: SEEDANCE_EXAMPLES },
  catalog: { defaultPrices: SEEDANCE_DEFAULT_PRICES, builtinEntries: SEEDANCE_BUILTIN_ENTRIES },
  // Edits and extensions (2.0): the source sent as the gateway's link, Ark's `reference_video`.
  sourceVideoModes: ['video-edit', 'video-extend'],
  // Ark's route takes no options of its own (a region's model id is the route's upstream_model or the channel's model_mapping).
  checkRouteOptions: noRouteOptions('a Seedance'),
  nest: { module: SeedanceFamilyModule, drafts: SeedanceDrafts, adapter: SeedanceUpstreamAdapter },
  /** Ark's internal error (its 500 code); never its content checks or input codes. */
  providerOwnFailure: ownFailureCodes(['InternalServiceError']),
  simulator: { module: SeedanceSimulatorModule },
});
