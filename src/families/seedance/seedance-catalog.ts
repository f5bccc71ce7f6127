import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { SEEDANCE_DEFAULT_PRICES } from './seedance-default-prices';
import { SEEDANCE_ASPECT_RATIOS, SEEDANCE_DEFAULT_DURATION, SEEDANCE_MAX_PROMPT, SEEDANCE_MODELS } from './seedance-models';

/**
 * Seedance's builtin catalog entries, made by ByteDance, from its model table: 5 s by default, 720p
 * first, 16:9 first, audio optional (on by default). Each route sends BytePlus's dated id; a
 * Volcengine channel sends the `doubao-` one (seedance-protocol.ts, arkModelId).
 */
export const SEEDANCE_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'seedance',
  Object.entries(SEEDANCE_MODELS).map(([id, model]) => ({
    id,
    label: model.label,
    ownedBy: 'bytedance',
    releasedAt: model.releasedAt,
    upstreamModel: model.upstreamModel,
    modes: model.modes,
    durations: model.durations,
    defaultDuration: SEEDANCE_DEFAULT_DURATION,
    resolutions: model.resolutions,
    aspectRatios: SEEDANCE_ASPECT_RATIOS,
    audio: model.audio,
    promptMaxLength: SEEDANCE_MAX_PROMPT,
    ...(model.maxReferenceImages ? { maxReferenceImages: model.maxReferenceImages } : {}),
  })),
  SEEDANCE_DEFAULT_PRICES,
);
