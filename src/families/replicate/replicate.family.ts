import { PUSH_SETTING } from '../shared/push-settings';
import { defineHostedFamily } from '../shared/hosted-family';
import { REPLICATE_BUILTIN_ENTRIES, REPLICATE_MODELS } from './replicate-catalog';
import { REPLICATE_DEFAULT_PRICES } from './replicate-default-prices';
import { ReplicateDrafts } from './replicate-drafts.service';
import { ReplicateFamilyModule } from './replicate-family.module';
import { REPLICATE_BASE_URL } from './replicate-protocol';
import { REPLICATE_EXAMPLES, ReplicateVideoRequestDto } from './replicate-request.dto';
import { ReplicateUpstreamAdapter } from './replicate-upstream.adapter';
import { ReplicateSimulatorModule } from './simulator/replicate-simulator.module';

/**
 * Replicate (platform `replicate`): Replicate's predictions API, one protocol for every model, so
 * its models are catalog entries routed to `owner/name[:version]` with an `input_map`; the
 * channel's api_key is the API token, sent as `Authorization: Bearer ...`.
 */
export const REPLICATE_FAMILY = defineHostedFamily(REPLICATE_MODELS, {
  platform: 'replicate',
  settings: [PUSH_SETTING],
  defaultBaseUrl: REPLICATE_BASE_URL,
  label: { en: 'Replicate', 'zh-CN': 'Replicate' },
  request: { schema: ReplicateVideoRequestDto, examples: REPLICATE_EXAMPLES },
  catalog: { defaultPrices: REPLICATE_DEFAULT_PRICES, builtinEntries: REPLICATE_BUILTIN_ENTRIES },
  nest: { module: ReplicateFamilyModule, drafts: ReplicateDrafts, adapter: ReplicateUpstreamAdapter },
  simulator: { module: ReplicateSimulatorModule },
});
