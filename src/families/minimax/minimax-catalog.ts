import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { MINIMAX_DEFAULT_PRICES } from './minimax-default-prices';
import { MINIMAX_DEFAULT_DURATION, MINIMAX_DURATIONS, MINIMAX_MAX_PROMPT, MINIMAX_MODELS } from './minimax-models';

/** MiniMax Hailuo's builtin entries: resolutions in the gateway's lower case (`768p`), as its prices are. */
export const MINIMAX_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'minimax',
  Object.entries(MINIMAX_MODELS).map(([id, rules]) => ({
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
  MINIMAX_DEFAULT_PRICES,
);
