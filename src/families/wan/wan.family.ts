import { namedModels } from '../family';
import { defineFamily } from '../shared/define-family';
import { ownFailureCodes } from '../../upstream/provider-own-failure';
import { WanSimulatorModule } from './simulator/wan-simulator.module';
import { WAN_BUILTIN_ENTRIES } from './wan-catalog';
import { WAN_DEFAULT_PRICES } from './wan-default-prices';
import { WanDrafts } from './wan-drafts.service';
import { WanFamilyModule } from './wan-family.module';
import { WAN_API_KEY_FORMAT, WAN_SIMULATOR_KEY } from './wan-key';
import { WAN_MODELS } from './wan-models';
import type { WanTaskRequest } from './wan-protocol';
import { WAN_EXAMPLES, WanVideoRequestDto } from './wan-request.dto';
import { WAN_ROUTE_OPTIONS } from './wan-task-rules';
import { WanUpstreamAdapter } from './wan-upstream.adapter';

/**
 * Alibaba Wan (platform `wan`) over DashScope / Model Studio: the channel's api_key is the DashScope
 * key, sent as Bearer; its base_url picks the region (international `dashscope-intl.aliyuncs.com`,
 * China `dashscope.aliyuncs.com`: the same API, a key works only in its own region).
 */
export const WAN_FAMILY = defineFamily<WanTaskRequest>({
  platform: 'wan',
  label: { en: 'Wan (Alibaba DashScope)', 'zh-CN': '通义万相 Wan' },
  defaultBaseUrl: 'https://dashscope-intl.aliyuncs.com',
  apiKeyFormat: WAN_API_KEY_FORMAT,
  multipartMetadata: { booleans: ['prompt_extend', 'watermark'] },
  /** DashScope's internal errors; never its content or parameter codes. */
  providerOwnFailure: ownFailureCodes(['InternalError', 'InternalError.*', 'InternalServerError']),
  // `protocol`: the wire, where the upstream id does not say it (wan2.6 and before: `legacy`; others `media`).
  ...WAN_ROUTE_OPTIONS,
  ...namedModels(Object.keys(WAN_MODELS)),
  request: { schema: WanVideoRequestDto, examples: WAN_EXAMPLES },
  catalog: { defaultPrices: WAN_DEFAULT_PRICES, builtinEntries: WAN_BUILTIN_ENTRIES },
  // wan2.7-videoedit's edits (`video`) and wan2.7-i2v's extensions (`first_clip`), the source sent as the gateway's link.
  sourceVideoModes: ['video-edit', 'video-extend'],
  nest: { module: WanFamilyModule, drafts: WanDrafts, adapter: WanUpstreamAdapter },
  simulator: { module: WanSimulatorModule, apiKey: WAN_SIMULATOR_KEY },
});
