import { routeOption } from '../route-option-definition';
import { FAILURE } from '../../upstream/failure-reason';
import { singleTokenKey } from '../family';
import { defineFamily } from '../shared/define-family';
import { ALPHA_BUILTIN_ENTRIES } from './alpha-catalog';
import type { AlphaTaskRequest } from './alpha-task-request';
import { ALPHA_DEFAULT_PRICES } from './alpha-default-prices';
import { AlphaDrafts } from './alpha-drafts.service';
import { AlphaFamilyModule } from './alpha-family.module';
import { ALPHA_BUILTIN_VERSIONS } from './alpha-builtin-models';
import { parseAlphaModel } from './alpha-models';
import { checkAlphaRouteOptions } from './alpha-task-rules';
import { ALPHA_FLAT_EXAMPLES, CreateVideoDto } from './alpha-request.dto';
import { AlphaUpstreamAdapter } from './alpha-upstream.adapter';
import { AlphaSimulatorModule } from './simulator/alpha-simulator.module';

const ALPHA_MODELS = ALPHA_BUILTIN_VERSIONS.map((version) => `alpha/${version}`);

/** Family A (`alpha/<version>`): the flat form only. */
export const ALPHA_FAMILY = defineFamily<AlphaTaskRequest>({
  platform: 'alpha',
  label: { en: 'alpha (family A)', 'zh-CN': 'alpha（A 系）' },
  apiKeyFormat: singleTokenKey('<api_key>'),
  multipartMetadata: { numbers: ['seed', 'template_id', 'img_id'], booleans: ['water_mark', 'generate_audio_switch'] },
  models: ALPHA_MODELS,
  publicModel: (name) => {
    const version = parseAlphaModel(name);
    return version && ALPHA_MODELS.includes(`alpha/${version}`) ? `alpha/${version}` : null;
  },
  modelPrefix: 'alpha/',
  forms: ['flat'],
  request: { schema: CreateVideoDto, examples: { flat: ALPHA_FLAT_EXAMPLES } },
  catalog: { defaultPrices: ALPHA_DEFAULT_PRICES, builtinEntries: ALPHA_BUILTIN_ENTRIES },
  modelIdKey: (name) => (name.startsWith('alpha/') ? `alpha/${name.slice('alpha/'.length).toLowerCase()}` : name),
  // `fast_motion: true`: `metadata.motion_mode: fast` is taken; `no_1080p_durations`: lengths refused at 1080p.
  routeOptions: [
    routeOption(
      'fast_motion',
      'boolean',
      ['Fast motion', '快速运动'],
      ['The model takes fast motion (priced twice).', '模型支持快速运动（价格翻倍）。'],
    ),
    routeOption(
      'no_1080p_durations',
      'list',
      ['No 1080p at', '不支持 1080p 的时长'],
      ['Lengths in seconds the model cannot make at 1080p, e.g. 10.', '不能以 1080p 生成的时长（秒），例如 10。'],
    ),
  ],
  checkRouteOptions: checkAlphaRouteOptions,
  nest: { module: AlphaFamilyModule, drafts: AlphaDrafts, adapter: AlphaUpstreamAdapter },
  simulator: { module: AlphaSimulatorModule },
  // Status 8 (`generation failed`, the interface's advice: retry) and 6 (deleted before delivery) are the provider's own.
  providerOwnFailure: (reason) => reason === FAILURE.generation,
});
