import type { BuiltinEntry, ModelMode } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { KLING_DEFAULT_PRICES } from './kling-default-prices';
import { KLING_DURATIONS, KLING_MODELS, KLING_RATIOS, KLING_RESOLUTION_OF_MODE } from './kling-models';
import { KLING_MAX_PROMPT } from './kling-request.dto';

const KLING_LABELS: Readonly<Record<string, string>> = {
  'kling-v2-6': 'Kling 2.6',
  'kling-v2-5-turbo': 'Kling 2.5 Turbo',
  'kling-v2-1': 'Kling 2.1',
  'kling-v2-1-master': 'Kling 2.1 Master',
  'kling-v1-6': 'Kling 1.6',
  'kling-v3': 'Kling 3.0',
  'kling-v3-omni': 'Kling 3.0 Omni',
};

const KLING_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'kling-v2-5-turbo': ['fal-kling-v2-5-turbo-pro', 'replicate-kling-v2-5-turbo-pro'],
};

/**
 * Kling's builtin catalog entries, from its model matrix: 720p is `std` mode, 1080p `pro`;
 * `first-last-frame` is Kling's `image_tail`; `audio: optional` is `sound`. Route option
 * `cfg_scale: true` lets `metadata.cfg_scale` through (the v1 models). kling-v3-omni's route speaks the
 * omni-video endpoint because its upstream id says omni (route option `omni`); it also edits
 * (`video_list` `base`) and extends (`feature`: the next shot) a stored video.
 */
export const KLING_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'kling',
  Object.entries(KLING_MODELS).map(([id, model]) => ({
    id,
    label: KLING_LABELS[id],
    releasedAt: model.releasedAt,
    // The other platforms' ids of the same model (earlier releases' entries): they keep working.
    aliases: KLING_ALIASES[id],
    modes: [
      ...(model.textToVideo ? (['text-to-video'] as ModelMode[]) : []),
      'image-to-video',
      ...(model.lastFrame ? (['first-last-frame'] as ModelMode[]) : []),
      ...(model.videoFromVideo ? (['video-edit', 'video-extend'] as ModelMode[]) : []),
    ],
    durations: model.durations ?? KLING_DURATIONS,
    defaultDuration: 5,
    resolutions: model.modes.map((mode) => KLING_RESOLUTION_OF_MODE[mode]),
    aspectRatios: KLING_RATIOS,
    audio: model.sound ? 'optional' : 'none',
    promptMaxLength: KLING_MAX_PROMPT,
    ...(model.cfgScale ? { options: { cfg_scale: true } } : {}),
  })),
  KLING_DEFAULT_PRICES,
);
