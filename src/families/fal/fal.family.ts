import { type FamilyDefinition, namedModels } from '../family';
import { checkHostedRouteOptions } from '../shared/hosted-route';
import type { HostedTaskRequest } from '../shared/hosted-request-rules';
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
export const FAL_FAMILY: FamilyDefinition<HostedTaskRequest> = {
  platform: 'fal',
  defaultBaseUrl: FAL_BASE_URL,
  label: { en: 'fal', 'zh-CN': 'fal' },
  settings: [],
  ...namedModels(FAL_MODELS.map((model) => model.id)),
  forms: ['flat', 'unified'],
  request: { schema: FalVideoRequestDto, examples: FAL_EXAMPLES },
  defaultPrices: FAL_DEFAULT_PRICES,
  builtinEntries: FAL_BUILTIN_ENTRIES,
  checkRouteOptions: checkHostedRouteOptions,
  module: FalFamilyModule,
  drafts: FalDrafts,
  adapter: FalUpstreamAdapter,
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
  simulator: { module: FalSimulatorModule, apiKey: FAL_SIMULATOR_KEY },
};
