import type { AudioSupport, DurationSpec, ModelMode } from '../../catalog/catalog-entry';
import type { ApiKeyFormat } from '../family';

/** Ark's `ratio` values (besides `adaptive`); 16:9 first, the default of text-to-video. */
export const SEEDANCE_ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];
/** The ratio sent with frames: newer models refuse an explicit one there, the video follows the image. */
export const SEEDANCE_ADAPTIVE = 'adaptive';
/** 5 s by default, as every peer sends. */
export const SEEDANCE_DEFAULT_DURATION = 5;
/** Ark takes at most 9 reference images (2.0; upstream-protocols-wires.md 1.2). */
export const SEEDANCE_MAX_REFERENCE_IMAGES = 9;
/** The most a data URI or file part may weigh (Ark documents 30 MB per image; the request body stays small). */
export const SEEDANCE_MAX_INLINE_IMAGE_BYTES = 10 * 1024 * 1024;
/** A prompt longer than this is refused before Ark sees it (Ark counts its own limit in tokens; UNCONFIRMED in characters). */
export const SEEDANCE_MAX_PROMPT = 5000;
/** `seed`: -1 (random) to 2^31-1; the gateway takes 0 upwards (absent: random). */
export const SEEDANCE_MAX_SEED = 2_147_483_647;

/** An Ark / ModelArk API key as the console shows it (a UUID): one word, so a pasted `Bearer <key>` is refused. */
export const SEEDANCE_API_KEY_FORMAT: ApiKeyFormat = {
  pattern: /^[\x21-\x7e]{8,256}$/,
  shape: 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx',
  description: 'the Ark API key as the console shows it: 8 to 256 printable characters, no spaces (no "Bearer " before it)',
};

/** An extension's source: Ark's reference video is 2 to 15 s (upstream-protocols-wires.md 1.2; ComfyUI's node: at least 1.8 s, 15.1 s in all). */
export const SEEDANCE_EXTEND_SOURCE_SECONDS = { min: 2, max: 15 };

/** A builtin Seedance model: the data its catalog entry is made from (seedance-catalog.ts). */
export interface SeedanceBuiltinModel {
  label: string;
  /** BytePlus ModelArk's dated id (a Volcengine channel sends the `doubao-` one: seedance-protocol.ts). */
  upstreamModel: string;
  releasedAt: string;
  modes: readonly ModelMode[];
  durations: DurationSpec;
  /** The first is the default. */
  resolutions: readonly string[];
  audio: AudioSupport;
  maxReferenceImages?: number;
}

/** What 2.0 and 2.0 fast take alike (fast is faster and cheaper). */
const SEEDANCE_2_0: Omit<SeedanceBuiltinModel, 'label' | 'upstreamModel'> = {
  releasedAt: '2026-02-12',
  // Edits and extensions of a stored video: the source as Ark's `reference_video` (seedance-source-rules.ts).
  modes: ['text-to-video', 'image-to-video', 'first-last-frame', 'reference-to-video', 'video-edit', 'video-extend'],
  durations: { min: 4, max: 15 },
  resolutions: ['720p', '480p'],
  audio: 'optional',
  maxReferenceImages: SEEDANCE_MAX_REFERENCE_IMAGES,
};

/**
 * The builtin models (upstream-protocols-wires.md 1.7): 2.0 and 2.0 fast make 4 to 15 s at 480p or
 * 720p (1080p is Volcengine's only, and not fast's), 1.5 pro 4 to 12 s up to 1080p; all three with
 * native audio (`generate_audio`), from text, a first frame or first and last frames; 2.0 also from
 * up to 9 reference images.
 */
export const SEEDANCE_MODELS: Readonly<Record<string, SeedanceBuiltinModel>> = {
  'seedance-2-0': { ...SEEDANCE_2_0, label: 'Seedance 2.0', upstreamModel: 'dreamina-seedance-2-0-260128' },
  'seedance-2-0-fast': { ...SEEDANCE_2_0, label: 'Seedance 2.0 Fast', upstreamModel: 'dreamina-seedance-2-0-fast-260128' },
  'seedance-1-5-pro': {
    label: 'Seedance 1.5 Pro',
    upstreamModel: 'seedance-1-5-pro-251215',
    releasedAt: '2025-12-16',
    modes: ['text-to-video', 'image-to-video', 'first-last-frame'],
    durations: { min: 4, max: 12 },
    resolutions: ['720p', '480p', '1080p'],
    audio: 'optional',
  },
};

/** Keys of Ark's body the gateway writes itself (or refuses): `metadata` may not set them. */
export const SEEDANCE_GATEWAY_KEYS: Readonly<Record<string, string>> = {
  model: 'model',
  content: 'prompt, input_reference, last_frame and reference_images',
  duration: 'duration',
  frames: 'duration',
  resolution: 'resolution',
  ratio: 'aspect_ratio',
  seed: 'seed',
  generate_audio: 'audio',
  callback_url: 'the webhooks of the gateway',
  // Priced otherwise than the catalog says: a 480p preview, flex (half price, hours), web search.
  draft: 'nothing (draft previews are not taken)',
  service_tier: 'nothing (the flex tier is not taken)',
  tools: 'nothing (web search is not taken)',
  // The gateway's own deadline decides how long a task may take.
  execution_expires_after: 'nothing (the gateway sets no expiry of its own)',
};
