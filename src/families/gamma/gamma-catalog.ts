import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { GAMMA_BUILTIN_MODELS } from './gamma-builtin-models';
import { GAMMA_DEFAULT_PRICES } from './gamma-default-prices';
import { GAMMA_MAX_PROMPT, GAMMA_MAX_REFERENCES } from './gamma-request.dto';

/** Family C's builtin entries: 4 to 15 s (5 by default), 720p by default; no 1080p on the fast model; any ratio the provider takes. */
export const GAMMA_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'gamma',
  GAMMA_BUILTIN_MODELS.map((id) => ({
    id,
    label: id.endsWith('-fast') ? 'Gamma 2.0 Fast' : 'Gamma 2.0',
    modes: ['text-to-video', 'image-to-video', 'reference-to-video'],
    durations: { min: 4, max: 15 },
    defaultDuration: 5,
    resolutions: id.endsWith('-fast') ? ['720p', '480p'] : ['720p', '480p', '1080p'],
    aspectRatios: [],
    audio: 'none',
    maxReferenceImages: GAMMA_MAX_REFERENCES,
    promptMaxLength: GAMMA_MAX_PROMPT,
  })),
  GAMMA_DEFAULT_PRICES,
);
