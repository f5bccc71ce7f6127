import type { CatalogEntry, ModelMode } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel } from '../family';
import { assertPromptWithinEntry, durationWithinEntry } from '../shared/entry-rules';
import { sizeAsShared } from '../shared/size-fields';
import { VIDU_GATEWAY_KEYS, ViduAudioField } from './vidu-models';
import type { ViduEndpoint } from './vidu-protocol';
import type { ViduVideoRequestDto } from './vidu-request.dto';

/**
 * What a Vidu model takes, read from its catalog entry (modes, lengths, resolutions, aspect ratios,
 * audio, prompt length) and its route (`audio_field`: `audio`, the default, or `bgm`). A new Vidu
 * model is its entry alone.
 */
export interface ViduModel {
  entry: CatalogEntry;
  audioField: ViduAudioField;
}

export function viduModelOf({ entry, route }: CatalogModel): ViduModel {
  return { entry, audioField: route.options?.audio_field === 'bgm' ? 'bgm' : 'audio' };
}

/** What the rules make of a validated body: everything but the images. */
export interface ViduSettled {
  endpoint: ViduEndpoint;
  mode: ModelMode;
  duration: number;
  resolution: string;
  aspectRatio?: string;
  /** What is sent and billed; undefined: the field is not sent (the provider's default, as billed). */
  audio: { field: ViduAudioField; value: boolean } | undefined;
  /** Billed with audio. */
  audioBilled: boolean;
  extra: Record<string, unknown>;
}

/** Vidu's default for the field: the q3 models' `audio` is on, the older models' `bgm` off. */
const AUDIO_DEFAULT: Record<ViduAudioField, boolean> = { audio: true, bgm: false };

/**
 * A Vidu model's rules across fields, before any charge: each a 400 naming the field the client
 * sent. `hasImage`: an `input_reference` came (field or file part).
 */
export function settleViduRequest(name: string, model: ViduModel, body: ViduVideoRequestDto, hasImage: boolean): ViduSettled {
  const { entry } = model;
  const offers = (mode: ModelMode) => entry.modes.includes(mode);
  assertPromptWithinEntry(body.prompt, entry, name);
  // A field of the shared vocabulary Vidu has no place for: refused rather than dropped unseen.
  if (body.negative_prompt !== undefined) throw AppError.invalid(`negative_prompt is not taken by ${name}`, 'negative_prompt');
  if (body.last_frame !== undefined && !hasImage)
    throw AppError.invalid('last_frame needs input_reference (the start frame)', 'last_frame');
  if (body.last_frame !== undefined && !offers('first-last-frame'))
    throw AppError.invalid(`last_frame is not taken by ${name}`, 'last_frame');
  if (!hasImage && !offers('text-to-video'))
    throw AppError.invalid(`${name} is not a text-to-video model: input_reference is required`, 'input_reference');
  if (hasImage && body.last_frame === undefined && !offers('image-to-video'))
    throw AppError.invalid(`${name} does not take image-to-video requests: give last_frame too`, 'input_reference');
  if (!hasImage && !body.prompt?.trim()) throw AppError.invalid('prompt is required for text-to-video', 'prompt');
  const extra = { ...(body.metadata ?? {}) };
  const setByGateway = Object.keys(extra).find((key) => Object.hasOwn(VIDU_GATEWAY_KEYS, key));
  if (setByGateway)
    throw AppError.invalid(
      `metadata.${setByGateway} is set by the gateway: use ${VIDU_GATEWAY_KEYS[setByGateway]}`,
      `metadata.${setByGateway}`,
    );
  if (hasImage && body.aspect_ratio !== undefined)
    throw AppError.invalid('aspect_ratio is not taken with input_reference: the video follows the image', 'aspect_ratio');

  const duration = durationWithinEntry(body.duration, entry, name);
  const resolutions = entry.resolutions.length > 0 ? entry.resolutions : ['720p'];
  const aspects = hasImage ? [] : entry.aspectRatios.length > 0 ? entry.aspectRatios : ['16:9'];
  const fromSize = body.size !== undefined ? sizeAsShared(body.size, aspects, resolutions, name) : undefined;
  const resolution = pick('resolution', body.resolution, fromSize?.resolution, resolutions, name);
  const aspectRatio = hasImage ? undefined : pick('aspect_ratio', body.aspect_ratio, fromSize?.aspectRatio, aspects, name);
  const audio = settleAudio(name, model, body.audio);
  return {
    endpoint: body.last_frame !== undefined ? 'start-end2video' : hasImage ? 'img2video' : 'text2video',
    mode: body.last_frame !== undefined ? 'first-last-frame' : hasImage ? 'image-to-video' : 'text-to-video',
    duration,
    resolution,
    ...(aspectRatio ? { aspectRatio } : {}),
    audio,
    audioBilled: audio ? audio.value : AUDIO_DEFAULT[model.audioField] && entry.audio !== 'none',
    extra,
  };
}

/** The field's value (else what `size` said, else the entry's first), one of `allowed` and agreeing with `size`. */
function pick(field: string, sent: string | undefined, fromSize: string | undefined, allowed: readonly string[], name: string): string {
  const wanted = sent?.trim();
  if (wanted !== undefined && fromSize !== undefined && wanted.toLowerCase() !== fromSize.toLowerCase())
    throw AppError.invalid(`${field} ${wanted} does not match size (${fromSize})`, field);
  const value = wanted ?? fromSize ?? allowed[0];
  const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  if (!match) throw AppError.invalid(`${field} must be ${allowed.join(', ')} for ${name}`, field);
  return match;
}

/** `audio` as the entry allows it: `always` is sent on, `none` off, `optional` as asked (else not sent: the provider's default). */
function settleAudio(name: string, model: ViduModel, asked: boolean | undefined): ViduSettled['audio'] {
  const field = model.audioField;
  switch (model.entry.audio) {
    case 'none':
      if (asked === true) throw AppError.invalid(`audio is not generated by ${name}`, 'audio');
      return { field, value: false };
    case 'always':
      if (asked === false) throw AppError.invalid(`${name} always generates audio`, 'audio');
      return { field, value: true };
    default:
      return asked === undefined ? undefined : { field, value: asked };
  }
}
