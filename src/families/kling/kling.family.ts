import { routeOption } from '../route-option-definition';
import { PUSH_SETTING } from '../shared/push-settings';
import { namedModels } from '../family';
import { defineFamily } from '../shared/define-family';
import { KLING_BUILTIN_ENTRIES } from './kling-catalog';
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
export const KLING_FAMILY = defineFamily<KlingTaskRequest>({
  platform: 'kling',
  settings: [PUSH_SETTING],
  label: { en: 'Kling', 'zh-CN': '可灵 Kling' },
  apiKeyFormat: { pattern: /^[^\s:]+:[^\s:]+$/, shape: '<access_key>:<secret_key>' },
  defaultBaseUrl: 'https://api-singapore.klingai.com',
  ...namedModels(Object.keys(KLING_MODELS), { anyCase: true }),
  modelPrefix: 'kling-',
  request: { schema: KlingVideoRequestDto, examples: KLING_EXAMPLES },
  catalog: { defaultPrices: KLING_DEFAULT_PRICES, builtinEntries: KLING_BUILTIN_ENTRIES },
  // Video from video on omni-video: the stored source as `video_list` `base` (edit) or `feature` (extend: the next shot).
  sourceVideoModes: ['video-edit', 'video-extend'],
  // `cfg_scale: true`: the model takes `metadata.cfg_scale` (the v1 models); `omni`: the omni-video endpoint.
  routeOptions: [
    routeOption(
      'cfg_scale',
      'boolean',
      ['Takes cfg_scale', '接受 cfg_scale'],
      [
        "Lets a client's metadata.cfg_scale (0 to 1) through: the v1 models take it.",
        '放行客户端的 metadata.cfg_scale（0 到 1）：v1 模型支持。',
      ],
    ),
    routeOption(
      'omni',
      'boolean',
      ['Omni-video endpoint', 'Omni-video 接口'],
      [
        'Sends the model to /v1/videos/omni-video (frames in image_list); unset, an upstream id with "omni" goes there.',
        '将模型发往 /v1/videos/omni-video（首尾帧放在 image_list）；未设置时，上游 ID 含 "omni" 的发往该接口。',
      ],
    ),
  ],
  checkRouteOptions: (options) => {
    const refused = Object.entries(options).find(([key, value]) => !['cfg_scale', 'omni'].includes(key) || typeof value !== 'boolean');
    if (!refused) return null;
    return ['cfg_scale', 'omni'].includes(refused[0])
      ? { field: refused[0], message: `${refused[0]} must be true or false` }
      : { field: refused[0], message: `${refused[0]} is not a Kling route option (cfg_scale and omni are)` };
  },
  nest: { module: KlingFamilyModule, drafts: KlingDrafts, adapter: KlingUpstreamAdapter },
  simulator: { module: KlingSimulatorModule, apiKey: `${SIMULATOR_ACCESS_KEY}:${SIMULATOR_SECRET_KEY}` },
});
