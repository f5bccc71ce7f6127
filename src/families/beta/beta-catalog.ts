import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { BETA_MODE_OF } from './beta-body.parser';
import { BETA_BUILTIN_MODELS } from './beta-builtin-models';
import { BETA_DEFAULT_PRICES } from './beta-default-prices';
import { BETA_PROMPT_BUDGET } from './beta-prompt';
import { BETA_RATIOS } from './beta-request.dto';

const DEFAULT_DURATION = 5;
/** The interface's limits on reference images: r2v 1 to 9, video-edit 0 to 5. */
const MAX_REFERENCE_IMAGES = { r2v: 9, 'video-edit': 5 } as const;

/**
 * Family B's builtin entries: one capability per model (its mode); 3 to 15 s, 1080p by default;
 * the prompt budget of 5000 units (a Chinese character counts 2).
 */
export const BETA_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'beta',
  Object.entries(BETA_BUILTIN_MODELS).map(([id, capability]) => ({
    id,
    label: `Beta 1.0 ${BETA_MODE_OF[capability]}`,
    modes: [BETA_MODE_OF[capability]],
    durations: { min: 3, max: 15 },
    defaultDuration: DEFAULT_DURATION,
    resolutions: ['1080p', '720p'],
    aspectRatios: capability === 'i2v' || capability === 'video-edit' ? [] : BETA_RATIOS,
    audio: 'none',
    promptMaxLength: BETA_PROMPT_BUDGET,
    ...(capability === 'r2v' || capability === 'video-edit' ? { maxReferenceImages: MAX_REFERENCE_IMAGES[capability] } : {}),
  })),
  BETA_DEFAULT_PRICES,
);
