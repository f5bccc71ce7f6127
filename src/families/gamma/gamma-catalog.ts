import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { DEFAULT_DURATION, DEFAULT_RESOLUTION } from './gamma-body.parser';
import { GAMMA_DEFAULT_PRICES } from './gamma-default-prices';
import { GAMMA_MODELS } from './gamma-request.dto';

/** Family C's builtin entries: 4 to 15 s; no 1080p on the fast model. */
export const GAMMA_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'gamma',
  GAMMA_MODELS.map((id) => ({
    id,
    modes: ['text-to-video', 'image-to-video', 'reference-to-video'],
    durations: { min: 4, max: 15 },
    defaultDuration: DEFAULT_DURATION,
    resolutions: id.endsWith('-fast') ? [DEFAULT_RESOLUTION, '480p'] : [DEFAULT_RESOLUTION, '480p', '1080p'],
    aspectRatios: [],
    audio: 'none',
    promptMaxLength: 5000,
  })),
  GAMMA_DEFAULT_PRICES,
);
