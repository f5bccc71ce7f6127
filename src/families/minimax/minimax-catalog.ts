import type { BuiltinEntry } from '../../catalog/catalog-entry';
import type { BuiltinModel } from '../shared/builtin-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { MINIMAX_DEFAULT_PRICES } from './minimax-default-prices';
import {
  MINIMAX_DEFAULT_DURATION,
  MINIMAX_DURATIONS,
  MINIMAX_MAX_PROMPT,
  MINIMAX_MODELS,
  MINIMAX_V2_DEFAULT_DURATION,
  MINIMAX_V2_DURATIONS,
  MINIMAX_V2_MAX_PROMPT,
  MINIMAX_V2_MODELS,
  MINIMAX_V2_RATIOS,
} from './minimax-models';

/**
 * MiniMax's builtin entries: resolutions in the gateway's lower case (`768p`), as its prices are. The
 * v1 models (Hailuo), then the v2 API's (MiniMax-H3: its upstream id picks the v2 wire).
 */
export const MINIMAX_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'minimax',
  [
    ...Object.entries(MINIMAX_MODELS).map(([id, rules]): BuiltinModel => ({
      id,
      label: id.replace(/^MiniMax-Hailuo-/, 'MiniMax Hailuo ').replace(/-Fast$/, ' Fast'),
      modes: [
        ...(rules.textToVideo ? (['text-to-video'] as const) : []),
        'image-to-video' as const,
        ...(rules.lastFrame ? (['first-last-frame'] as const) : []),
      ],
      durations: MINIMAX_DURATIONS,
      defaultDuration: MINIMAX_DEFAULT_DURATION,
      resolutions: [...new Set([...rules.resolutions.text, ...rules.resolutions.image])].map((resolution) => resolution.toLowerCase()),
      aspectRatios: [],
      audio: 'none',
      promptMaxLength: MINIMAX_MAX_PROMPT,
    })),
    ...Object.entries(MINIMAX_V2_MODELS).map(([id, model]): BuiltinModel => ({
      id,
      label: model.label,
      releasedAt: model.releasedAt,
      modes: ['text-to-video' as const, 'image-to-video' as const, 'first-last-frame' as const],
      durations: MINIMAX_V2_DURATIONS,
      defaultDuration: MINIMAX_V2_DEFAULT_DURATION,
      resolutions: model.resolutions,
      aspectRatios: MINIMAX_V2_RATIOS,
      audio: 'always' as const,
      promptMaxLength: MINIMAX_V2_MAX_PROMPT,
    })),
  ],
  MINIMAX_DEFAULT_PRICES,
);
