import { routeOption } from '../route-option-definition';
import { PUSH_SETTING } from '../shared/push-settings';
import { namedModels, oneRouteOption } from '../family';
import { defineFamily } from '../shared/define-family';
import { VIDU_BUILTIN_ENTRIES } from './vidu-catalog';
import { VIDU_DEFAULT_PRICES } from './vidu-default-prices';
import { ViduDrafts } from './vidu-drafts.service';
import { ViduFamilyModule } from './vidu-family.module';
import { VIDU_MODELS } from './vidu-models';
import type { ViduTaskRequest } from './vidu-protocol';
import { VIDU_EXAMPLES, ViduVideoRequestDto } from './vidu-request.dto';
import { ViduUpstreamAdapter } from './vidu-upstream.adapter';
import { ViduSimulatorModule } from './simulator/vidu-simulator.module';
import { ownFailureCodes } from '../../upstream/provider-own-failure';

/** Vidu (ShengShu, platform `vidu`): the ent/v2 API; the channel's api_key is sent as `Authorization: Token <key>`. */
export const VIDU_FAMILY = defineFamily<ViduTaskRequest>({
  platform: 'vidu',
  settings: [PUSH_SETTING],
  label: { en: 'Vidu', 'zh-CN': 'Vidu 生数' },
  defaultBaseUrl: 'https://api.vidu.com',
  // The key as the dashboard shows it (`vda_...`): one word, so a pasted `Token <key>` or a line break is refused.
  apiKeyFormat: {
    pattern: /^[\x21-\x7e]{8,256}$/,
    shape: 'vda_…',
    description: 'the key as Vidu shows it: 8 to 256 printable characters, no spaces (no "Token " before it)',
  },
  multipartMetadata: { numbers: ['wm_position'], booleans: ['watermark'] },
  ...namedModels(Object.keys(VIDU_MODELS)),
  request: { schema: ViduVideoRequestDto, examples: VIDU_EXAMPLES },
  catalog: { defaultPrices: VIDU_DEFAULT_PRICES, builtinEntries: VIDU_BUILTIN_ENTRIES },
  // `audio_field`: which body field carries `audio` (`audio`, the default, on q3; `bgm` on the older models).
  ...oneRouteOption(
    'Vidu',
    routeOption(
      'audio_field',
      'choice',
      ['Audio field', '音频字段'],
      [
        'Which body field carries audio: audio (q3, the default) or bgm (the older models).',
        '由哪个字段携带音频：audio（q3，默认）或 bgm（较早的模型）。',
      ],
      ['audio', 'bgm'],
    ),
    (value) => value === 'audio' || value === 'bgm',
    'audio_field must be "audio" or "bgm"',
  ),
  nest: { module: ViduFamilyModule, drafts: ViduDrafts, adapter: ViduUpstreamAdapter },
  /** Vidu's internal failure (its 500 code); never its policy or input codes. */
  providerOwnFailure: ownFailureCodes(['InternalServiceFailure']),
  simulator: { module: ViduSimulatorModule },
});
