import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import { IsOptionalNotNull, MaxUtf16Length } from '../../common/http/validation';
import { codeList } from '../shared/code-list';
import { textAndImageExamples } from '../shared/request-examples';
import * as field from '../shared/request-fields';
import {
  SEEDANCE_ASPECT_RATIOS,
  SEEDANCE_MAX_PROMPT,
  SEEDANCE_MAX_REFERENCE_IMAGES,
  SEEDANCE_MAX_SEED,
  SEEDANCE_MODELS,
} from './seedance-models';

/**
 * The request schema of a Seedance model, on both forms (`seconds` arrives here as `duration`). What a
 * model takes (lengths, resolutions, ratios, modes, references, audio) is its catalog entry's, checked
 * after this (seedance-task-rules.ts).
 */
@ApiSchema({
  name: 'SeedanceVideoRequest',
  description: `Seedance over BytePlus ModelArk / Volcengine Ark (${codeList(Object.keys(SEEDANCE_MODELS))}, and the catalog's other \`seedance\` routes): text-to-video, a first frame with \`input_reference\`, first and last frames with \`last_frame\`, or up to ${SEEDANCE_MAX_REFERENCE_IMAGES} \`reference_images\` (not with frames).`,
})
export class SeedanceVideoRequestDto {
  @ApiProperty({ enum: Object.keys(SEEDANCE_MODELS), example: 'seedance-2-0-fast' })
  @IsString()
  model: string;

  @ApiPropertyOptional({
    example: 'a paper lantern drifting over a night river',
    maxLength: SEEDANCE_MAX_PROMPT,
    description: 'required for text-to-video and with reference images',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(SEEDANCE_MAX_PROMPT)
  prompt?: string;

  @field.WholeSecondsField({
    example: 5,
    description: "seconds (also `seconds`): the model's lengths (2.0 4 to 15, 1.5 pro 4 to 12); default 5",
  })
  duration?: number;

  @field.PixelSizeField({
    example: '1280x720',
    description: '`<width>x<height>`: sets aspect_ratio (text-to-video and references) and resolution (its short side: 480, 720 or 1080)',
  })
  size?: string;

  @field.OptionalTextField({
    example: '16:9',
    description: `${SEEDANCE_ASPECT_RATIOS.join(', ')}; default 16:9. With frames the video follows the image (only \`adaptive\` is taken)`,
  })
  aspect_ratio?: string;

  @field.OptionalTextField({ example: '720p', description: "480p, 720p (1080p on 1.5 pro); default the model's first (720p)" })
  resolution?: string;

  @field.ImageSourceField(field.URL_OR_DATA_URI_MESSAGE, {
    description:
      'first frame (image-to-video): a file part (multipart), an http(s) URL or a data URI of a PNG, JPEG or WEBP image (at most 10 MB inline)',
  })
  input_reference?: string;

  @field.ImageSourceField(field.URL_OR_DATA_URI_MESSAGE, { description: 'last frame (with input_reference): an http(s) URL or a data URI' })
  last_frame?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: SEEDANCE_MAX_REFERENCE_IMAGES,
    description: `reference images (reference-to-video, not with input_reference or last_frame): 1 to the model's max_reference_images (${SEEDANCE_MAX_REFERENCE_IMAGES} on 2.0), each an http(s) URL or a data URI`,
  })
  @IsOptionalNotNull()
  @IsArray({ message: '$property must be a list of http(s) URLs or data URIs' })
  @ArrayMaxSize(SEEDANCE_MAX_REFERENCE_IMAGES, { message: `$property takes at most ${SEEDANCE_MAX_REFERENCE_IMAGES} images` })
  @IsString({ each: true, message: '$property must be a list of http(s) URLs or data URIs' })
  reference_images?: string[];

  @field.OptionalBooleanField({ example: true, description: 'native audio (`generate_audio`): default on' })
  audio?: boolean;

  @field.MetadataField({
    example: { watermark: false, camera_fixed: false },
    description:
      'passed to Ark as it is (`watermark`, `camera_fixed`, `return_last_frame`, ...); keys the gateway sets itself, and `draft`, `service_tier`, `tools`, `execution_expires_after`, are refused',
  })
  metadata?: Record<string, unknown>;

  @field.OptionalTextField({ description: 'not taken by Seedance (refused)' })
  negative_prompt?: string;

  @field.SeedField(SEEDANCE_MAX_SEED, { description: 'absent: random' })
  seed?: number;
}

/** Seedance 2.0 fast from a prompt, with audio (Ark's default). */
const TEXT_EXAMPLE = {
  model: 'seedance-2-0-fast',
  prompt: 'a paper lantern drifting over a night river',
  duration: 5,
  aspect_ratio: '16:9',
};
/** Seedance 1.5 pro from a first frame: the video follows the image's shape. */
const IMAGE_EXAMPLE = {
  model: 'seedance-1-5-pro',
  prompt: 'the lantern rises slowly',
  input_reference: field.EXAMPLE_FRAME,
  resolution: '720p',
};

export const SEEDANCE_EXAMPLES = textAndImageExamples('seedance', {
  text: { summary: 'Seedance 2.0 fast, text-to-video with audio', value: TEXT_EXAMPLE },
  image: { summary: 'Seedance 1.5 pro, image-to-video', value: IMAGE_EXAMPLE },
});
