import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { RUNWAY_DEFAULT_PRICES } from './runway-default-prices';
import { RUNWAY_MODELS, RUNWAY_RATIO_BY_ASPECT } from './runway-models';

const ASPECT_OF_RATIO = new Map(
  Object.values(RUNWAY_RATIO_BY_ASPECT).flatMap((byAspect) => Object.entries(byAspect).map(([aspect, ratio]) => [ratio, aspect])),
);
const RESOLUTION_OF_RATIO = new Map(
  Object.entries(RUNWAY_RATIO_BY_ASPECT).flatMap(([resolution, byAspect]) => Object.values(byAspect).map((ratio) => [ratio, resolution])),
);

/** Runway's builtin entries: its `ratio` pixels read as the shared aspect ratio and resolution (`1280:720` is 16:9 at 720p). */
export const RUNWAY_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'runway',
  Object.entries(RUNWAY_MODELS).map(([id, rules]) => {
    const ratios = [...new Set([...rules.textRatios, ...rules.imageRatios])];
    return {
      id,
      modes: [
        ...(rules.textToVideo ? (['text-to-video'] as const) : []),
        'image-to-video' as const,
        ...(rules.veo ? (['first-last-frame'] as const) : []),
      ],
      durations: rules.durations,
      defaultDuration: rules.defaultDuration,
      resolutions: [...new Set(ratios.map((ratio) => RESOLUTION_OF_RATIO.get(ratio)).filter((r): r is string => !!r))],
      aspectRatios: [...new Set(ratios.map((ratio) => ASPECT_OF_RATIO.get(ratio)).filter((a): a is string => !!a))],
      audio: rules.veo ? 'optional' : 'none',
    };
  }),
  RUNWAY_DEFAULT_PRICES,
);
