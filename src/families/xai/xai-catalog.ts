import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { XAI_DEFAULT_PRICES } from './xai-default-prices';
import { XAI_ASPECT_RATIOS, XAI_DEFAULT_DURATION, XAI_DURATIONS, XAI_MODELS } from './xai-models';

/** xAI's builtin catalog entries, from its model table: 1 to 15 s (8 by default), 480p first, audio optional (`generate_audio`). */
export const XAI_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'xai',
  Object.entries(XAI_MODELS).map(([id, model]) => ({
    id,
    label: id === 'grok-imagine-video' ? 'Grok Imagine Video' : `Grok Imagine Video ${id.split('-').pop()}`,
    modes: model.modes,
    durations: XAI_DURATIONS,
    defaultDuration: XAI_DEFAULT_DURATION,
    resolutions: model.resolutions,
    aspectRatios: XAI_ASPECT_RATIOS,
    audio: 'optional' as const,
  })),
  XAI_DEFAULT_PRICES,
);
