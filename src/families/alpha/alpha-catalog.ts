import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { ALPHA_DEFAULT_PRICES } from './alpha-default-prices';
import { ALPHA_QUALITIES, ALPHA_SPECS, ALPHA_VERSIONS } from './alpha-models';

const DEFAULT_QUALITY = '720p';

/** Family A's builtin entries, one per `alpha/<version>`; fast motion and 1080p lengths stay the family's protocol rules. */
export const ALPHA_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'alpha',
  ALPHA_VERSIONS.map((version) => {
    const spec = ALPHA_SPECS[version];
    return {
      id: `alpha/${version}`,
      // The provider is sent the version alone.
      upstreamModel: version,
      modes: ['text-to-video', 'image-to-video'],
      durations: spec.durations,
      defaultDuration: 5,
      resolutions: [DEFAULT_QUALITY, ...ALPHA_QUALITIES.filter((quality) => quality !== DEFAULT_QUALITY)],
      aspectRatios: spec.aspectRatios,
      audio: spec.audio ? 'optional' : 'none',
      promptMaxLength: 2048,
    };
  }),
  ALPHA_DEFAULT_PRICES,
);
