import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { ALPHA_BUILTIN_SPECS, ALPHA_BUILTIN_VERSIONS } from './alpha-builtin-models';
import { ALPHA_DEFAULT_PRICES } from './alpha-default-prices';
import { ALPHA_QUALITIES } from './alpha-models';
import { ALPHA_MAX_PROMPT } from './alpha-request.dto';

const DEFAULT_QUALITY = '720p';
const DEFAULT_DURATION = 5;

/**
 * Family A's builtin entries, one per `alpha/<version>`. Route options carry what the shared
 * vocabulary has no field for: `fast_motion: true` (v4.5, v4, v3.5) and `no_1080p_durations`, the
 * lengths a version cannot make at 1080p (v5.6 and v5.5: 10 s; v3.5: 8 s).
 */
export const ALPHA_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'alpha',
  ALPHA_BUILTIN_VERSIONS.map((version) => {
    const spec = ALPHA_BUILTIN_SPECS[version];
    const options = {
      ...(spec.fastMotion ? { fast_motion: true } : {}),
      ...(spec.no1080pDurations.length > 0 ? { no_1080p_durations: spec.no1080pDurations } : {}),
    };
    return {
      id: `alpha/${version}`,
      label: `Alpha ${version.toUpperCase()}`,
      // The provider is sent the version alone.
      upstreamModel: version,
      modes: ['text-to-video', 'image-to-video'],
      durations: spec.durations,
      defaultDuration: DEFAULT_DURATION,
      resolutions: [DEFAULT_QUALITY, ...ALPHA_QUALITIES.filter((quality) => quality !== DEFAULT_QUALITY)],
      aspectRatios: spec.aspectRatios,
      audio: spec.audio ? 'optional' : 'none',
      promptMaxLength: ALPHA_MAX_PROMPT,
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
  }),
  ALPHA_DEFAULT_PRICES,
);
