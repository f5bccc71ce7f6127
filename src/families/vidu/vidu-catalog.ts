import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { VIDU_DEFAULT_PRICES } from './vidu-default-prices';
import { VIDU_MAX_PROMPT, VIDU_MODELS, VIDU_RESOLUTIONS } from './vidu-models';

/**
 * Vidu's builtin catalog entries, from its model table: 5 s by default, 720p first; `first-last-frame`
 * is Vidu's start-end2video; `audio: optional` is `audio` on q3 and `bgm` (route option `audio_field`) on q2.
 */
export const VIDU_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'vidu',
  Object.entries(VIDU_MODELS).map(([id, model]) => ({
    id,
    // viduq3-pro -> Vidu Q3 Pro
    label: id.replace(
      /^vidu(q\d+)-(\w)(\w*)$/,
      (_, tier: string, first: string, rest: string) => `Vidu ${tier.toUpperCase()} ${first.toUpperCase()}${rest}`,
    ),
    modes: model.modes,
    durations: model.durations,
    defaultDuration: 5,
    resolutions: VIDU_RESOLUTIONS,
    aspectRatios: model.aspectRatios,
    audio: model.audio,
    promptMaxLength: VIDU_MAX_PROMPT,
    ...(model.audioField === 'bgm' ? { options: { audio_field: 'bgm' } } : {}),
  })),
  VIDU_DEFAULT_PRICES,
);
