import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { type BuiltinLifecycle, type BuiltinModel, builtinEntries } from '../shared/builtin-entry';
import { VEO_DEFAULT_PRICES } from './veo-default-prices';
import { OMNI_MODELS } from './omni-models';
import { VEO_ASPECT_RATIOS, VEO_DEFAULT_RESOLUTION, VEO_DEFAULT_SECONDS, VEO_MODELS, VEO_SIMULATOR_MODEL } from './veo-models';

/**
 * Google shut the 3.0 ids down on 2026-06-30 (Gemini API changelog) and, by a notice of 2026-10-25,
 * the 3.1 previews on 2026-10-22; their successor is another wire. A 3.1 preview's replacement is
 * the same model and tier on Runway (docs/families.md); nothing else serves Veo 3.0.
 */
const VEO_LIFECYCLE: Readonly<Record<string, BuiltinLifecycle>> = {
  'veo-3.1-generate-preview': { status: 'retired', sunset: '2026-10-22', replacement: 'veo3.1' },
  'veo-3.1-fast-generate-preview': { status: 'retired', sunset: '2026-10-22', replacement: 'veo3.1_fast' },
  'veo-3.0-generate-001': { status: 'retired', sunset: '2026-06-30' },
  'veo-3.0-fast-generate-001': { status: 'retired', sunset: '2026-06-30' },
};

const VEO_LABELS: Readonly<Record<string, string>> = {
  'veo-3.1-generate-preview': 'Veo 3.1 preview (Gemini API)',
  'veo-3.1-fast-generate-preview': 'Veo 3.1 Fast preview (Gemini API)',
  'veo-3.0-generate-001': 'Veo 3.0 (Gemini API)',
  'veo-3.0-fast-generate-001': 'Veo 3.0 Fast (Gemini API)',
  [VEO_SIMULATOR_MODEL]: 'Veo simulator (Veo 3.1 Fast rules)',
};

/** Gemini Omni's entries (the Interactions API): public ids after Google's names, Google's id as the route's upstream_model. */
const OMNI_ENTRIES = Object.entries(OMNI_MODELS).map(([id, model]): BuiltinModel => ({
  id,
  label: model.label,
  // Runway's id of the same model (its route joins this entry).
  ...(id === 'gemini-omni-flash' ? { aliases: ['gemini_omni_flash'] } : {}),
  ...(model.releasedAt ? { releasedAt: model.releasedAt } : {}),
  upstreamModel: model.upstreamModel,
  modes: model.lastFrame ? ['text-to-video', 'image-to-video', 'first-last-frame'] : ['text-to-video', 'image-to-video'],
  durations: model.durations,
  defaultDuration: model.defaultDuration,
  resolutions: model.resolutions,
  aspectRatios: VEO_ASPECT_RATIOS,
  audio: 'always',
}));

/**
 * Veo's builtin entries (the Gemini API's model ids, all retired), the simulator's model (active,
 * served by the seeded simulator channel only) and Gemini Omni's (active): audio is always generated;
 * 3.1 takes a last frame. An operator re-activates an id a Gemini project still serves, or adds one as a custom entry.
 */
export const VEO_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'veo',
  [
    ...Object.entries(VEO_MODELS).map(([id, rules]): BuiltinModel => ({
      id,
      label: VEO_LABELS[id] ?? id,
      modes: rules.lastFrame ? ['text-to-video', 'image-to-video', 'first-last-frame'] : ['text-to-video', 'image-to-video'],
      durations: rules.durations,
      defaultDuration: VEO_DEFAULT_SECONDS,
      resolutions: [VEO_DEFAULT_RESOLUTION, ...rules.resolutions.filter((resolution) => resolution !== VEO_DEFAULT_RESOLUTION)],
      aspectRatios: VEO_ASPECT_RATIOS,
      audio: 'always',
      lifecycle: VEO_LIFECYCLE[id],
    })),
    ...OMNI_ENTRIES,
  ],
  VEO_DEFAULT_PRICES,
  'google',
);
