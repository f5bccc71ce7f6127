import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries, BuiltinModel } from '../shared/builtin-entry';
import { KLING_V2_5_TURBO_PRO } from '../shared/hosted-model-capabilities';
import { FAL_DEFAULT_PRICES } from './fal-default-prices';

/**
 * fal's builtin models: endpoints of fal's queue as routes of the catalog's models (one entry per
 * model: the same id as the model's entry of its maker's platform, whose capabilities and prices
 * win; fal's former ids stay as aliases), each routed by mode to its
 * endpoint ids with the `input_map` of their input schemas (fal.ai/models/<id>/llms.txt, checked
 * 2026-11-27; docs/families.md lists the sources). Any other fal video endpoint is an entry an
 * operator adds the same way (POST /api/admin/models).
 */
/** What Veo 3.1 and its fast tier take on fal (fal-ai/veo3.1[/fast]/.../llms.txt): lengths written "8s", audio, seed. */
const VEO_31_ON_FAL = {
  modes: ['text-to-video', 'image-to-video'],
  durations: [4, 6, 8],
  defaultDuration: 8,
  resolutions: ['720p', '1080p'],
  aspectRatios: ['16:9', '9:16'],
  audio: 'optional',
  options: {
    input_map: {
      prompt: 'prompt',
      first_frame: 'image_url',
      seconds: { field: 'duration', as: 'seconds' },
      aspect_ratio: 'aspect_ratio',
      resolution: 'resolution',
      audio: 'generate_audio',
      negative_prompt: 'negative_prompt',
      seed: 'seed',
    },
  },
} satisfies Partial<BuiltinModel>;

/** What Seedance 2.0 and its fast tier take on fal (bytedance/seedance-2.0/.../llms.txt): durations as text, audio, ratios. */
const SEEDANCE_2_ON_FAL = {
  modes: ['text-to-video', 'image-to-video'],
  durations: { min: 4, max: 15 },
  defaultDuration: 5,
  resolutions: ['720p', '480p'],
  aspectRatios: ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'],
  audio: 'optional',
  options: {
    input_map: {
      prompt: 'prompt',
      first_frame: 'image_url',
      seconds: { field: 'duration', as: 'string' },
      aspect_ratio: 'aspect_ratio',
      resolution: 'resolution',
      audio: 'generate_audio',
      seed: 'seed',
    },
  },
} satisfies Partial<BuiltinModel>;

export const FAL_MODELS: readonly BuiltinModel[] = [
  {
    id: 'kling-v2-5-turbo',
    label: 'Kling 2.5 Turbo',
    aliases: ['fal-kling-v2-5-turbo-pro'],
    ownedBy: 'kling',
    ...KLING_V2_5_TURBO_PRO,
    upstreamModel: {
      'text-to-video': 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video',
      'image-to-video': 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video',
    },
    options: {
      input_map: {
        prompt: 'prompt',
        first_frame: 'image_url',
        seconds: { field: 'duration', as: 'string' },
        aspect_ratio: 'aspect_ratio',
        negative_prompt: 'negative_prompt',
      },
      // The Pro endpoints: Kling's 1080p (its `pro` mode) only.
      resolution: '1080p',
    },
  },
  {
    // Its own entry, not a route of MiniMax-Hailuo-02: fal sells this endpoint cheaper (4.5 against 5 credits a
    // second at 768p), and one entry has one price: folding it in would raise what its customers pay.
    id: 'fal-hailuo-02-standard',
    label: 'MiniMax Hailuo 02 Standard (fal)',
    ownedBy: 'minimax',
    modes: ['text-to-video', 'image-to-video'],
    durations: [6, 10],
    defaultDuration: 6,
    resolutions: ['768p'],
    aspectRatios: [],
    audio: 'none',
    promptMaxLength: 2000,
    upstreamModel: {
      'text-to-video': 'fal-ai/minimax/hailuo-02/standard/text-to-video',
      'image-to-video': 'fal-ai/minimax/hailuo-02/standard/image-to-video',
    },
    options: { input_map: { prompt: 'prompt', first_frame: 'image_url', seconds: { field: 'duration', as: 'string' } } },
  },
  {
    id: 'veo3.1',
    label: 'Veo 3.1',
    aliases: ['fal-veo-3-1'],
    ownedBy: 'google',
    ...VEO_31_ON_FAL,
    upstreamModel: { 'text-to-video': 'fal-ai/veo3.1', 'image-to-video': 'fal-ai/veo3.1/image-to-video' },
  },
  {
    id: 'veo3.1_fast',
    label: 'Veo 3.1 Fast',
    ownedBy: 'google',
    ...VEO_31_ON_FAL,
    upstreamModel: { 'text-to-video': 'fal-ai/veo3.1/fast', 'image-to-video': 'fal-ai/veo3.1/fast/image-to-video' },
  },
  {
    // A route of Kling's own entry (its capabilities and prices win): fal's Pro endpoints make Kling's 1080p.
    id: 'kling-v3',
    label: 'Kling 3.0',
    ownedBy: 'kling',
    modes: ['text-to-video', 'image-to-video', 'first-last-frame'],
    durations: { min: 3, max: 15 },
    defaultDuration: 5,
    resolutions: ['1080p'],
    aspectRatios: ['16:9', '9:16', '1:1'],
    audio: 'optional',
    upstreamModel: {
      'text-to-video': 'fal-ai/kling-video/v3/pro/text-to-video',
      'image-to-video': 'fal-ai/kling-video/v3/pro/image-to-video',
      'first-last-frame': 'fal-ai/kling-video/v3/pro/image-to-video',
    },
    options: {
      input_map: {
        prompt: 'prompt',
        first_frame: 'start_image_url',
        last_frame: 'end_image_url',
        seconds: { field: 'duration', as: 'string' },
        aspect_ratio: 'aspect_ratio',
        audio: 'generate_audio',
        negative_prompt: 'negative_prompt',
      },
      resolution: '1080p',
    },
  },
  {
    // Routes of ByteDance's own entries (their capabilities and prices win): text and a first frame.
    id: 'seedance-2-0',
    label: 'Seedance 2.0',
    ownedBy: 'bytedance',
    ...SEEDANCE_2_ON_FAL,
    upstreamModel: { 'text-to-video': 'bytedance/seedance-2.0/text-to-video', 'image-to-video': 'bytedance/seedance-2.0/image-to-video' },
  },
  {
    id: 'seedance-2-0-fast',
    label: 'Seedance 2.0 Fast',
    ownedBy: 'bytedance',
    ...SEEDANCE_2_ON_FAL,
    upstreamModel: {
      'text-to-video': 'bytedance/seedance-2.0/fast/text-to-video',
      'image-to-video': 'bytedance/seedance-2.0/fast/image-to-video',
    },
  },
  {
    // A route of MiniMax's own entry (its capabilities and prices win): fal's Standard endpoints make 768p only.
    id: 'MiniMax-Hailuo-2.3',
    label: 'MiniMax Hailuo 2.3',
    ownedBy: 'minimax',
    modes: ['text-to-video', 'image-to-video'],
    durations: [6, 10],
    defaultDuration: 6,
    resolutions: ['768p'],
    aspectRatios: [],
    audio: 'none',
    upstreamModel: {
      'text-to-video': 'fal-ai/minimax/hailuo-2.3/standard/text-to-video',
      'image-to-video': 'fal-ai/minimax/hailuo-2.3/standard/image-to-video',
    },
    options: {
      input_map: { prompt: 'prompt', first_frame: 'image_url', seconds: { field: 'duration', as: 'string' } },
      resolution: '768p',
    },
  },
];

export const FAL_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries('fal', FAL_MODELS, FAL_DEFAULT_PRICES);
