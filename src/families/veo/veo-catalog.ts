import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { VEO_DEFAULT_PRICES } from './veo-default-prices';
import { VEO_ASPECT_RATIOS, VEO_DEFAULT_RESOLUTION, VEO_DEFAULT_SECONDS, VEO_MODELS } from './veo-models';

/**
 * Veo's builtin entries (the Gemini API's model ids): audio is always generated; 3.1 takes a last
 * frame. Google shut the 3.0 ids down on 2026-06-30 (Gemini API changelog) and, by a notice of
 * 2026-10-25, the 3.1 previews on 2026-10-22; their successor is another wire. So each is
 * deprecated in favour of the same Veo generation on Runway (docs/families.md); the operator
 * retires them, or keeps one a Gemini project still serves.
 */
export const VEO_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'veo',
  Object.entries(VEO_MODELS).map(([id, rules]) => ({
    id,
    modes: rules.lastFrame ? ['text-to-video', 'image-to-video', 'first-last-frame'] : ['text-to-video', 'image-to-video'],
    durations: rules.durations,
    defaultDuration: VEO_DEFAULT_SECONDS,
    resolutions: [VEO_DEFAULT_RESOLUTION, ...rules.resolutions.filter((resolution) => resolution !== VEO_DEFAULT_RESOLUTION)],
    aspectRatios: VEO_ASPECT_RATIOS,
    audio: 'always',
    deprecatedFor: id.includes('fast') ? 'veo3.1_fast' : 'veo3.1',
  })),
  VEO_DEFAULT_PRICES,
);
