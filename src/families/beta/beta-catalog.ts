import type { BuiltinEntry, ModelMode } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { DEFAULT_DURATION } from './beta-body.parser';
import { BETA_DEFAULT_PRICES } from './beta-default-prices';
import { BETA_MODELS, BetaCapability } from './beta-request';
import { BETA_RATIOS } from './beta-request.dto';

const MODE_OF: Record<BetaCapability, ModelMode> = {
  t2v: 'text-to-video',
  i2v: 'image-to-video',
  r2v: 'reference-to-video',
  'video-edit': 'video-edit',
};

/** Family B's builtin entries: one capability per model (its mode); 3 to 15 s, 1080p by default. */
export const BETA_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'beta',
  Object.entries(BETA_MODELS).map(([id, capability]) => ({
    id,
    modes: [MODE_OF[capability]],
    durations: { min: 3, max: 15 },
    defaultDuration: DEFAULT_DURATION,
    resolutions: ['1080p', '720p'],
    aspectRatios: capability === 'i2v' || capability === 'video-edit' ? [] : BETA_RATIOS,
    audio: 'none',
  })),
  BETA_DEFAULT_PRICES,
);
