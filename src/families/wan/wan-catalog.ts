import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { WAN_DEFAULT_PRICES } from './wan-default-prices';
import { WAN_MODELS } from './wan-models';

/**
 * Wan's builtin catalog entries (made by Alibaba), from its model table: 5 s by default, 720p first;
 * `first-last-frame` is wan2.7-i2v's `last_frame` media. The route's wire follows the upstream id
 * (wan2.6 legacy, wan2.7 media), or its `protocol` option.
 */
export const WAN_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'wan',
  Object.entries(WAN_MODELS).map(([id, model]) => ({
    id,
    label: model.label,
    releasedAt: model.releasedAt,
    modes: model.modes,
    durations: model.durations,
    defaultDuration: 5,
    resolutions: ['720p', '1080p'],
    aspectRatios: model.aspectRatios,
    audio: model.audio,
    promptMaxLength: model.promptMaxLength,
  })),
  WAN_DEFAULT_PRICES,
  'alibaba',
);
