import type { CatalogEntry } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel } from '../family';
import { parsePixelSize } from '../pixel-size';
import { durationWithinEntry } from '../shared/entry-rules';
import {
  KLING_GATEWAY_KEYS,
  KLING_OMNI_GATEWAY_KEYS,
  KLING_RATIOS,
  KLING_RESOLUTION_OF_MODE,
  klingOmniOf,
  KlingMode,
} from './kling-models';
import type { KlingVideoRequestDto } from './kling-request.dto';

/**
 * What a Kling model takes, read from its catalog entry: the modes it renders in from its
 * resolutions (720p is `std`, 1080p `pro`), text-to-video and `image_tail` from its modes, `sound`
 * from its audio, `cfg_scale` from its route's options. A new Kling model is its entry alone.
 */
export interface KlingModel {
  textToVideo: boolean;
  /** The first is its default. */
  modes: readonly KlingMode[];
  sound: boolean;
  cfgScale: boolean;
  lastFrame: boolean;
  /** Its route speaks the omni-video endpoint: the route's `omni` option, else its upstream id. */
  omni: boolean;
  entry: CatalogEntry;
}

export function klingModelOf({ entry, route }: CatalogModel): KlingModel {
  const upstream = typeof route.upstreamModel === 'string' ? route.upstreamModel : (Object.values(route.upstreamModel)[0] ?? '');
  const modes = entry.resolutions
    .map((resolution) => MODE_OF_RESOLUTION[resolution.toLowerCase()])
    .filter((mode): mode is KlingMode => mode !== undefined);
  return {
    textToVideo: entry.modes.includes('text-to-video'),
    modes: modes.length > 0 ? modes : ['std', 'pro'],
    sound: entry.audio !== 'none',
    cfgScale: route.options?.cfg_scale === true,
    lastFrame: entry.modes.includes('first-last-frame'),
    omni: typeof route.options?.omni === 'boolean' ? route.options.omni : klingOmniOf(upstream),
    entry,
  };
}

/** What the rules make of a validated body: everything but the images. */
export interface KlingSettled {
  imageToVideo: boolean;
  duration: number;
  mode: KlingMode;
  aspectRatio?: string;
  extra: Record<string, unknown>;
}

const MODE_OF_RESOLUTION: Record<string, KlingMode> = { '720p': 'std', '1080p': 'pro' };
const RATIO_OF = (width: number, height: number) =>
  KLING_RATIOS.find((ratio) => {
    const [w, h] = ratio.split(':').map(Number);
    return width * h === height * w;
  });

/**
 * A Kling model's rules across fields, before any charge: each a 400 naming the field the client
 * sent. `hasImage`: an `input_reference` came (field or file part).
 */
export function settleKlingRequest(name: string, model: KlingModel, body: KlingVideoRequestDto, hasImage: boolean): KlingSettled {
  if (body.seed !== undefined) throw AppError.invalid(`seed is not taken by ${name}`, 'seed');
  if (!hasImage && !model.textToVideo)
    throw AppError.invalid(`${name} is image-to-video only: input_reference is required`, 'input_reference');
  if (!hasImage && !body.prompt?.trim()) throw AppError.invalid('prompt is required (text-to-video)', 'prompt');
  if (body.last_frame !== undefined && !hasImage)
    throw AppError.invalid('last_frame needs input_reference (the first frame)', 'last_frame');
  const duration = durationWithinEntry(body.duration, model.entry, name);
  const extra = { ...(body.metadata ?? {}) };
  const gatewayKeys = model.omni ? KLING_OMNI_GATEWAY_KEYS : KLING_GATEWAY_KEYS;
  const setByGateway = Object.keys(extra).find((key) => gatewayKeys.includes(key));
  if (setByGateway)
    throw AppError.invalid(`metadata.${setByGateway} is set by the gateway from the request's own fields`, `metadata.${setByGateway}`);
  const { ratio: sizeRatio, mode: sizeMode } = fromSize(body.size);
  if (body.aspect_ratio !== undefined && sizeRatio !== undefined && body.aspect_ratio !== sizeRatio) {
    throw AppError.invalid(`aspect_ratio ${body.aspect_ratio} does not match size ${body.size}`, 'aspect_ratio');
  }
  if (hasImage && body.aspect_ratio !== undefined)
    throw AppError.invalid('aspect_ratio is not taken with input_reference: the video follows the image', 'aspect_ratio');
  const mode = settleMode(name, model, body, sizeMode, extra.mode);
  delete extra.mode;
  if (body.last_frame !== undefined && (!model.lastFrame || mode !== 'pro')) {
    throw AppError.invalid(
      model.lastFrame ? `last_frame needs 1080p (Kling's pro mode) on ${name}` : `last_frame is not taken by ${name}`,
      'last_frame',
    );
  }
  if (extra.sound !== undefined && (!model.sound || !['on', 'off'].includes(extra.sound as string))) {
    throw AppError.invalid(
      model.sound ? 'metadata.sound must be "on" or "off"' : `metadata.sound is not taken by ${name} (it generates no audio)`,
      'metadata.sound',
    );
  }
  // A model that always makes sound is sent `sound: on` (and billed so).
  if (model.entry.audio === 'always') extra.sound = 'on';
  if (
    extra.cfg_scale !== undefined &&
    (!model.cfgScale || typeof extra.cfg_scale !== 'number' || extra.cfg_scale < 0 || extra.cfg_scale > 1)
  ) {
    throw AppError.invalid(
      model.cfgScale ? 'metadata.cfg_scale must be a number from 0 to 1' : `metadata.cfg_scale is not taken by ${name}`,
      'metadata.cfg_scale',
    );
  }
  assertKlingV3Fields(extra, duration, hasImage);
  const aspectRatio = hasImage ? undefined : (body.aspect_ratio ?? sizeRatio ?? KLING_RATIOS[0]);
  return { imageToVideo: hasImage, duration, mode, ...(aspectRatio ? { aspectRatio } : {}), extra };
}

/** `size` as a ratio and a mode; a 400 naming `size` for one Kling does not render. */
function fromSize(size: string | undefined): { ratio?: string; mode?: KlingMode } {
  const pixels = parsePixelSize(size);
  if (size === undefined) return {};
  const ratio = pixels ? RATIO_OF(pixels.width, pixels.height) : undefined;
  const mode = pixels ? MODE_OF_RESOLUTION[`${Math.min(pixels.width, pixels.height)}p`] : undefined;
  if (!ratio || !mode)
    throw AppError.invalid('size must be 16:9, 9:16 or 1:1 at 720 or 1080 pixels on the short side (e.g. 1280x720, 1080x1920)', 'size');
  return { ratio, mode };
}

/** The mode from `metadata.mode`, `resolution` or `size` (they must agree), else the model's default; one the model renders. */
function settleMode(
  name: string,
  model: KlingModel,
  body: KlingVideoRequestDto,
  sizeMode: KlingMode | undefined,
  metadataMode: unknown,
): KlingMode {
  if (metadataMode !== undefined && metadataMode !== 'std' && metadataMode !== 'pro')
    throw AppError.invalid('metadata.mode must be "std" or "pro"', 'metadata.mode');
  const resolutionMode = body.resolution !== undefined ? MODE_OF_RESOLUTION[body.resolution.toLowerCase()] : undefined;
  const asked: Array<[string, KlingMode | undefined]> = [
    ['metadata.mode', metadataMode],
    ['resolution', resolutionMode],
    ['size', sizeMode],
  ];
  const given = asked.filter((entry): entry is [string, KlingMode] => entry[1] !== undefined);
  const conflict = given.find(([, mode]) => mode !== given[0][1]);
  if (conflict) throw AppError.invalid(`${conflict[0]} does not match ${given[0][0]} (720p is std, 1080p is pro)`, conflict[0]);
  const [field, mode] = given[0] ?? ['resolution', model.modes[0]];
  if (!model.modes.includes(mode)) {
    throw AppError.invalid(
      `${field}: ${name} renders ${model.modes.map((m) => KLING_RESOLUTION_OF_MODE[m]).join(' or ')} only (Kling's ${model.modes.join('/')} mode)`,
      field,
    );
  }
  return mode;
}

/**
 * Kling 3's own fields, passed in `metadata`, where they cannot mix (upstream-protocols-wires.md, 4.3
 * and 4.4): no sound with a reference video, no first frame with a video to edit (`refer_type: base`),
 * `voice_list` only with sound and without `element_list`, multi-shot prompts that add up to the duration.
 */
function assertKlingV3Fields(extra: Record<string, unknown>, duration: number, hasImage: boolean): void {
  const videos = Array.isArray(extra.video_list) ? (extra.video_list as Array<{ refer_type?: unknown }>) : [];
  if (videos.length > 0 && extra.sound === 'on')
    throw AppError.invalid(
      'metadata.sound must be "off" with metadata.video_list (Kling makes no sound over a reference video)',
      'metadata.sound',
    );
  if (hasImage && videos.some((video) => video?.refer_type === 'base'))
    throw AppError.invalid('input_reference is not taken with a video to edit (metadata.video_list refer_type "base")', 'input_reference');
  if (extra.voice_list !== undefined && (extra.sound !== 'on' || extra.element_list !== undefined))
    throw AppError.invalid('metadata.voice_list needs metadata.sound "on" and no metadata.element_list', 'metadata.voice_list');
  if (Array.isArray(extra.multi_prompt)) {
    const shots = extra.multi_prompt as Array<{ duration?: unknown }>;
    const total = shots.reduce((sum, shot) => sum + Number(shot?.duration), 0);
    if (shots.length < 1 || shots.length > 6 || total !== duration)
      throw AppError.invalid(`metadata.multi_prompt must be 1 to 6 shots whose durations add up to ${duration}`, 'metadata.multi_prompt');
  }
}
