import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries, BuiltinModel } from '../shared/builtin-entry';
import { KLING_V2_5_TURBO_PRO } from '../shared/hosted-model-capabilities';
import { REPLICATE_DEFAULT_PRICES } from './replicate-default-prices';

/**
 * Replicate's builtin model: a model on Replicate as a catalog entry, routed to `owner/name`
 * (its latest version) with the `input_map` of its input schema (replicate.com/<owner>/<name>/api,
 * checked 2026-11-27; docs/families.md lists the source). Any other Replicate video model is an
 * entry an operator adds the same way (POST /api/admin/models), pinned with `owner/name:version` if wanted.
 */
export const REPLICATE_MODELS: readonly BuiltinModel[] = [
  {
    // A route of the Kling entry (its capabilities and prices win); Replicate's former id stays an alias.
    id: 'kling-v2-5-turbo',
    label: 'Kling 2.5 Turbo',
    aliases: ['replicate-kling-v2-5-turbo-pro'],
    ownedBy: 'kling',
    // The model's published schema has no end-frame input (docs/families.md): first-last-frame is refused for it.
    ...KLING_V2_5_TURBO_PRO,
    upstreamModel: 'kwaivgi/kling-v2.5-turbo-pro',
    options: {
      input_map: {
        prompt: 'prompt',
        first_frame: 'start_image',
        seconds: 'duration',
        aspect_ratio: 'aspect_ratio',
        negative_prompt: 'negative_prompt',
      },
      // Kling's 1080p (its `pro` mode) only.
      resolution: '1080p',
    },
  },
];

export const REPLICATE_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries('replicate', REPLICATE_MODELS, REPLICATE_DEFAULT_PRICES);
