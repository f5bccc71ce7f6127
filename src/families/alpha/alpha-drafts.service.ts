import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { validBody } from '../../common/http/validation';
import { ImageInput, StagedImageInputs } from '../shared/staged-image-inputs.service';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput, UploadedPart } from '../family';
import { withoutUndefined } from '../shared/json-copy';
import type { AlphaTaskRequest } from './alpha-task-request';
import { CreateVideoDto } from './alpha-request.dto';
import { AlphaImageField, alphaModelOf, settleAlphaRequest } from './alpha-task-rules';

/**
 * Turns a family A submit into a TaskDraft: every rule of the interface, read from the model's
 * catalog entry, is checked (400 with its message and the field named) before anything is charged
 * or sent, and an image to upload is fetched or decoded up front so that a bad one costs nothing.
 */
@Injectable()
export class AlphaDrafts implements FamilyDrafts<AlphaTaskRequest> {
  constructor(private readonly images: StagedImageInputs) {}

  async prepare(model: string, submit: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<AlphaTaskRequest>> {
    const dto = await validBody(CreateVideoDto, submit.body);
    const metadata = dto.metadata ?? {};
    const image = imageSource(dto, submit.inputReferenceFile);
    const imageField = image ? image.field : metadata.img_id !== undefined ? 'metadata.img_id' : null;
    const settled = settleAlphaRequest(model, alphaModelOf(catalog), dto, imageField);
    const { mode } = settled;

    // metadata.img_id beats an automatic upload, so the image is then not even fetched.
    const staged = image && metadata.img_id === undefined ? await this.images.prepare(image.input, image.field) : null;
    const request: AlphaTaskRequest = {
      mode,
      prompt: dto.prompt,
      duration: settled.duration,
      quality: settled.quality,
      aspect_ratio: settled.aspectRatio,
      negative_prompt: metadata.negative_prompt,
      seed: metadata.seed,
      motion_mode: metadata.motion_mode,
      camera_movement: metadata.camera_movement,
      template_id: metadata.template_id,
      style: metadata.style,
      water_mark: metadata.water_mark,
      // A model that always makes sound is sent the switch (and billed so).
      generate_audio_switch: settled.audio ? true : metadata.generate_audio_switch,
      img_id: metadata.img_id,
      image: staged?.ref,
    };
    return {
      draft: {
        platform: 'alpha',
        model,
        action: mode === 'image' ? 'imageGenerate' : 'textGenerate',
        mode: mode === 'image' ? 'image-to-video' : 'text-to-video',
        request: withoutUndefined(request),
        properties: { input: dto.prompt ?? '', origin_model_name: dto.model },
        quote: { model, resolution: settled.quality, seconds: settled.duration, audio: settled.audio, fastMotion: settled.fastMotion },
      },
      // Lets go of the staged image once the submit is over.
      release: staged?.release,
    };
  }
}

/** The one image of an image-to-video submit, whichever field carried it. */
type ImageSource = { field: Exclude<AlphaImageField, 'metadata.img_id'>; input: ImageInput };

function imageSource(dto: CreateVideoDto, file: UploadedPart | undefined): ImageSource | null {
  const sources: ImageSource[] = [];
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
