import { namedModels, singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { RUNWAY_BUILTIN_ENTRIES } from './runway-catalog';
import type { RunwayTaskRequest } from './runway-request';
import { RUNWAY_DEFAULT_PRICES } from './runway-default-prices';
import { RunwayDrafts } from './runway-drafts.service';
import { RunwayFamilyModule } from './runway-family.module';
import { RUNWAY_MODELS } from './runway-models';
import { RUNWAY_EXAMPLES, RunwayVideoRequestDto } from './runway-request.dto';
import { checkRunwayRouteOptions, RUNWAY_ROUTE_OPTIONS } from './runway-route-options';
import { RunwayUpstreamAdapter } from './runway-upstream.adapter';
import { RunwaySimulatorModule } from './simulator/runway-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/** Runway (platform `runway`): gen4.5, gen4_turbo, veo3.1, veo3.1_fast on both forms; the channel's api_key is the Runway key. */
export const RUNWAY_FAMILY = defineFamily<RunwayTaskRequest>({
  platform: 'runway',
  label: { en: 'Runway', 'zh-CN': 'Runway' },
  apiKeyFormat: singleTokenKey('key_…'),
  defaultBaseUrl: 'https://api.dev.runwayml.com',
  multipartMetadata: { numbers: [], booleans: ['audio'] },
  ...namedModels(Object.keys(RUNWAY_MODELS)),
  request: { schema: RunwayVideoRequestDto, examples: RUNWAY_EXAMPLES },
  catalog: { defaultPrices: RUNWAY_DEFAULT_PRICES, builtinEntries: RUNWAY_BUILTIN_ENTRIES },
  // Remixes: video-to-video (aleph2), the source sent as the gateway's link (`videoUri`).
  sourceVideoModes: ['video-edit'],
  // `veo: true`: Runway's Veo dialect (last frame, negative prompt, audio); `text_aspect_ratios`: fewer ratios for text-to-video.
  routeOptions: RUNWAY_ROUTE_OPTIONS,
  checkRouteOptions: checkRunwayRouteOptions,
  nest: { module: RunwayFamilyModule, drafts: RunwayDrafts, adapter: RunwayUpstreamAdapter },
  /** Runway's failure codes to retry after a delay (docs.dev.runwayml.com errors/task-failures); not SAFETY.*, ASSET.*, INTERNAL.BAD_OUTPUT. */
  providerOwnFailure: ownFailureCodes(['INTERNAL', 'INPUT_PREPROCESSING.INTERNAL', 'THIRD_PARTY.UNAVAILABLE']),
  simulator: { module: RunwaySimulatorModule },
});
