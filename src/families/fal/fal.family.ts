import { PUSH_SETTING } from '../shared/push-settings';
import { FAL_JWKS_SETTING } from './fal-push-settings';
import { defineHostedFamily } from '../shared/hosted-family';
import { FAL_SIMULATOR_KEY } from './emulator/fal-emulator';
import { FAL_BUILTIN_ENTRIES, FAL_MODELS } from './fal-catalog';
import { FAL_DEFAULT_PRICES } from './fal-default-prices';
import { FalDrafts } from './fal-drafts.service';
import { FalFamilyModule } from './fal-family.module';
import { FAL_BASE_URL } from './fal-protocol';
import { FAL_EXAMPLES, FalVideoRequestDto } from './fal-request.dto';
import { FalUpstreamAdapter } from './fal-upstream.adapter';
import { FalSimulatorModule } from './simulator/fal-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/**
 * fal (platform `fal`): fal's queue API, one protocol for every endpoint, so its models are catalog
 * entries routed to endpoint ids with an `input_map`; the channel's api_key is `<key_id>:<key_secret>`,
 * sent as `Authorization: Key ...`.
 */
export const FAL_FAMILY = defineHostedFamily(FAL_MODELS, {
  platform: 'fal',
  settings: [PUSH_SETTING, FAL_JWKS_SETTING],
  defaultBaseUrl: FAL_BASE_URL,
  label: { en: 'fal', 'zh-CN': 'fal' },
  request: { schema: FalVideoRequestDto, examples: FAL_EXAMPLES },
  catalog: { defaultPrices: FAL_DEFAULT_PRICES, builtinEntries: FAL_BUILTIN_ENTRIES },
  nest: { module: FalFamilyModule, drafts: FalDrafts, adapter: FalUpstreamAdapter },
  /** fal's request errors of its own infrastructure (docs.fal.ai request errors); not client_* or bad_request. */
  providerOwnFailure: ownFailureCodes([
    'request_timeout',
    'startup_timeout',
    'runner_scheduling_failure',
    'runner_connection_timeout',
    'runner_disconnected',
    'runner_connection_refused',
    'runner_connection_error',
    'runner_incomplete_response',
    'runner_server_error',
    'internal_error',
  ]),
  // The simulator signs its webhooks with a key of its own, published at its JWKS.
  simulator: {
    module: FalSimulatorModule,
    apiKey: FAL_SIMULATOR_KEY,
    channelSettings: (root) => ({ webhook_jwks_url: `${root}/fal/.well-known/jwks.json` }),
  },
});
