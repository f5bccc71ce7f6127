import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { validBody } from '../../common/http/validation';
import { ImageInput, StagedImageInputs } from '../shared/staged-image-inputs.service';
import type { FamilyDraft, FamilyDrafts, SubmitInput, UploadedPart } from '../family';
import { withoutUndefined } from '../shared/json-copy';
import { nearestAspectRatio, parsePixelSize } from '../pixel-size';
import { assertModelDuration } from '../shared/model-durations';
import { ALPHA_SPECS, AlphaQuality, FAST_MOTION_DURATION, nearestQuality, parseAlphaModel } from './alpha-models';
import type { AlphaTaskRequest } from './alpha-task-request';
import { CreateVideoDto } from './alpha-request.dto';

const DEFAULT_DURATION = 5;
const DEFAULT_QUALITY: AlphaQuality = '720p';

/**
 * Turns a family A submit into a TaskDraft: every rule of the interface is checked (400 with its
 * message and the field named) before anything is charged or sent, and an image to upload is
 * fetched or decoded up front so that a bad one costs nothing.
 */
@Injectable()
export class AlphaDrafts implements FamilyDrafts<AlphaTaskRequest> {
  constructor(private readonly images: StagedImageInputs) {}

  async prepare(model: string, submit: SubmitInput): Promise<FamilyDraft<AlphaTaskRequest>> {
    const version = parseAlphaModel(model)!;
    const dto = await validBody(CreateVideoDto, submit.body);
    const spec = ALPHA_SPECS[version];
    const metadata = dto.metadata ?? {};
    const image = imageSource(dto, submit.inputReferenceFile);
    const mode = image || metadata.img_id !== undefined ? 'image' : 'text';
    if (mode === 'text' && !dto.prompt?.trim()) throw AppError.invalid('prompt is required', 'prompt');

    const pixelSize = parsePixelSize(dto.size);
    const quality = (metadata.quality ??
      dto.resolution?.toLowerCase() ??
      (pixelSize ? nearestQuality(pixelSize.width, pixelSize.height) : dto.size?.toLowerCase()) ??
      DEFAULT_QUALITY) as AlphaQuality;
    const duration = dto.duration ?? DEFAULT_DURATION;
    assertModelDuration(duration, spec.durations, model);
    if (metadata.generate_audio_switch && !spec.audio) {
      throw AppError.invalid(`model ${version} does not support audio generation`, 'metadata.generate_audio_switch');
    }
    const fastMotion = metadata.motion_mode === 'fast';
    if (fastMotion && !spec.fastMotion) throw AppError.invalid(`model ${version} does not support fast motion`, 'metadata.motion_mode');
    if (fastMotion && (duration !== FAST_MOTION_DURATION || quality === '1080p')) {
      throw AppError.invalid('fast motion only supports 360p/540p/720p at 5s', 'metadata.motion_mode');
    }
    if (quality === '1080p' && spec.no1080pDurations.includes(duration)) {
      // The interface's message shape: `combination <quality> / <duration> not supported`.
      throw AppError.invalid(`combination ${quality} / ${duration} not supported`, 'duration');
    }
    let aspectRatio: string | undefined;
    if (mode === 'text') {
      if (metadata.aspect_ratio && !spec.aspectRatios.includes(metadata.aspect_ratio)) {
        throw AppError.invalid(
          `model ${version} does not support aspect_ratio ${metadata.aspect_ratio} (allowed: ${spec.aspectRatios.join(', ')})`,
          'metadata.aspect_ratio',
        );
      }
      // A pixel size (what OpenAI clients send) also says which way round the video is.
      aspectRatio =
        metadata.aspect_ratio ?? (pixelSize ? nearestAspectRatio(pixelSize.width, pixelSize.height, spec.aspectRatios) : undefined);
    }

    // metadata.img_id beats an automatic upload, so the image is then not even fetched.
    const staged = image && metadata.img_id === undefined ? await this.images.prepare(image.input, image.field) : null;
    const request: AlphaTaskRequest = {
      mode,
      prompt: dto.prompt,
      duration,
      quality,
      aspect_ratio: aspectRatio,
      negative_prompt: metadata.negative_prompt,
      seed: metadata.seed,
      motion_mode: metadata.motion_mode,
      camera_movement: metadata.camera_movement,
      template_id: metadata.template_id,
      style: metadata.style,
      water_mark: metadata.water_mark,
      generate_audio_switch: metadata.generate_audio_switch,
      img_id: metadata.img_id,
      image: staged?.ref,
    };
    return {
      draft: {
        platform: 'alpha',
        model,
        action: mode === 'image' ? 'imageGenerate' : 'textGenerate',
        request: withoutUndefined(request),
        properties: { input: dto.prompt ?? '', origin_model_name: dto.model },
        quote: { model, resolution: quality, seconds: duration, audio: metadata.generate_audio_switch === true, fastMotion },
      },
      // Lets go of the staged image once the submit is over.
      release: staged?.release,
    };
  }
}

/** The one image of an image-to-video submit, whichever field carried it. */
function imageSource(dto: CreateVideoDto, file: UploadedPart | undefined): { field: string; input: ImageInput } | null {
  const sources: Array<{ field: string; input: ImageInput }> = [];
  if (dto.image !== undefined) sources.push({ field: 'image', input: fromText(dto.image) });
  if (dto.images !== undefined) sources.push({ field: 'images', input: fromText(dto.images[0]) });
  if (file) sources.push({ field: 'input_reference', input: { file } });
  else if (dto.input_reference !== undefined) sources.push({ field: 'input_reference', input: fromReference(dto.input_reference) });
  if (sources.length > 1)
    throw AppError.invalid(`send the image once: ${sources.map((s) => s.field).join(' and ')} were both given`, sources[1].field);
  return sources[0] ?? null;
}

const fromText = (text: string): ImageInput => (text.trim().startsWith('data:') ? { dataUri: text.trim() } : { url: text.trim() });

/** OpenAI's `input_reference` as text, or as `{image_url}`; `file_id` refers to OpenAI's file store, which is not here. */
function fromReference(reference: unknown): ImageInput {
  if (typeof reference === 'string' && reference.trim()) return fromText(reference);
  const imageUrl = (reference as { image_url?: unknown } | null)?.image_url;
  if (typeof imageUrl === 'string' && imageUrl.trim()) return fromText(imageUrl);
  throw AppError.invalid('input_reference must be an image file, an image URL, a data URI or {"image_url": ...}', 'input_reference');
}
