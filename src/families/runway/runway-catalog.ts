import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { RUNWAY_DEFAULT_PRICES } from './runway-default-prices';
import { RUNWAY_MODELS, RUNWAY_RATIO_BY_ASPECT } from './runway-models';
import type { RunwayRouteOptions } from './runway-route-options';

const ASPECT_OF_RATIO = new Map(
  Object.values(RUNWAY_RATIO_BY_ASPECT).flatMap((byAspect) => Object.entries(byAspect).map(([aspect, ratio]) => [ratio, aspect])),
);
const RESOLUTION_OF_RATIO = new Map(
  Object.entries(RUNWAY_RATIO_BY_ASPECT).flatMap(([resolution, byAspect]) => Object.values(byAspect).map((ratio) => [ratio, resolution])),
);

const aspectsOf = (ratios: readonly string[]) => [
  ...new Set(ratios.map((ratio) => ASPECT_OF_RATIO.get(ratio)).filter((aspect): aspect is string => !!aspect)),
];

const RUNWAY_LABELS: Readonly<Record<string, string>> = {
  'gen4.5': 'Runway Gen-4.5',
  gen4_turbo: 'Runway Gen-4 Turbo',
  'veo3.1': 'Veo 3.1',
  'veo3.1_fast': 'Veo 3.1 Fast',
  gemini_omni_flash: 'Gemini Omni Flash',
};

/** fal's Veo 3.1 (an earlier release's entry) is this model: its id keeps working. */
const RUNWAY_ALIASES: Readonly<Record<string, readonly string[]>> = { 'veo3.1': ['fal-veo-3-1'], gemini_omni_flash: ['gemini_omni_flash'] };
/** Models whose public id is their maker's name (the entry another family ships too; Runway's id its alias and upstream model). */
const RUNWAY_PUBLIC_IDS: Readonly<Record<string, string>> = { gemini_omni_flash: 'gemini-omni-flash' };

/**
 * Runway's builtin entries: its `ratio` pixels read as the shared aspect ratio and resolution
 * (`1280:720` is 16:9 at 720p). Route options: `veo: true` for the Veo models (last frame,
 * negative prompt, audio); `text_aspect_ratios` where text-to-video makes fewer ratios (gen4.5).
 */
export const RUNWAY_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'runway',
  Object.entries(RUNWAY_MODELS).map(([id, rules]) => {
    const ratios = [...new Set([...rules.textRatios, ...rules.imageRatios])];
    const aspectRatios = aspectsOf(ratios);
    const textAspects = aspectsOf(rules.textRatios);
    const options: RunwayRouteOptions = {
      ...(rules.veo ? { veo: true } : {}),
      ...(rules.textToVideo && textAspects.length < aspectRatios.length ? { text_aspect_ratios: textAspects } : {}),
    };
    return {
      id: RUNWAY_PUBLIC_IDS[id] ?? id,
      ...(RUNWAY_PUBLIC_IDS[id] ? { upstreamModel: id } : {}),
      label: RUNWAY_LABELS[id] ?? id,
      ...(RUNWAY_ALIASES[id] ? { aliases: RUNWAY_ALIASES[id] } : {}),
      // Runway hosts Google's models beside its own.
      ownedBy: rules.veo || id.startsWith('gemini') ? 'google' : 'runway',
      modes: [
        ...(rules.textToVideo ? (['text-to-video'] as const) : []),
        'image-to-video' as const,
        ...(rules.veo ? (['first-last-frame'] as const) : []),
      ],
      durations: rules.durations,
      defaultDuration: rules.defaultDuration,
      resolutions: [...new Set(ratios.map((ratio) => RESOLUTION_OF_RATIO.get(ratio)).filter((r): r is string => !!r))],
      aspectRatios,
      audio: rules.veo ? 'optional' : 'none',
      ...(Object.keys(options).length > 0 ? { options: { ...options } } : {}),
    };
  }),
  RUNWAY_DEFAULT_PRICES,
);
