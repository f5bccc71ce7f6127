import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsString } from 'class-validator';
import { IsOptionalNotNull } from '../../common/http/validation';
import { codeList } from '../shared/code-list';
import { textAndImageExamples } from '../shared/request-examples';
import { XAI_ASPECT_RATIOS, XAI_MODELS } from './xai-models';
import {
  EXAMPLE_FRAME,
  ImageSourceField,
  MetadataField,
  OptionalBooleanField,
  OptionalTextField,
  PixelSizeField,
  URL_OR_DATA_URI_MESSAGE,
  WholeSecondsField,
} from '../shared/request-fields';

const NOT_TAKEN = 'not taken by xAI (refused)';

/**
 * The request schema of an xAI Grok Imagine model, on both forms (`seconds` arrives here as
 * `duration`). What a model takes (lengths, resolutions, aspect ratios, modes, audio) is its
 * catalog entry's, checked after this (xai-task-rules.ts).
 */
@ApiSchema({
  name: 'XaiVideoRequest',
  description: `xAI Grok Imagine (${codeList(Object.keys(XAI_MODELS))}, and the catalog's other \`xai\` routes): text-to-video, or image-to-video with \`input_reference\`.`,
})
export class XaiVideoRequestDto {
  @ApiProperty({ enum: Object.keys(XAI_MODELS), example: 'grok-imagine-video' })
  @IsString()
  model: string;

  @ApiProperty({ example: 'a hummingbird hovering over a red flower', description: 'required, also with input_reference' })
  @IsString()
  prompt: string;

  @WholeSecondsField({ example: 6, description: 'seconds (also `seconds`): 1 to 15; default 8' })
  duration?: number;

  @PixelSizeField({
    example: '1280x720',
    description: '`<width>x<height>`: sets aspect_ratio and resolution (its short side: 480, 720 or 1080)',
  })
  size?: string;

  @OptionalTextField({
    example: '16:9',
    description: `${XAI_ASPECT_RATIOS.join(', ')}; default the model's first (text-to-video), the image's shape with input_reference`,
  })
  aspect_ratio?: string;

  @OptionalTextField({ example: '480p', description: "480p, 720p; 1080p on grok-imagine-video-1.5; default the model's first (480p)" })
  resolution?: string;

  @ImageSourceField(URL_OR_DATA_URI_MESSAGE, {
    description:
      'first frame (image-to-video): a file part (multipart), an http(s) URL or a data URI of a PNG, JPEG or WEBP image (at most 10 MB inline)',
  })
  input_reference?: string;

  @OptionalBooleanField({ example: true, description: "`generate_audio`: the video's native audio track; default xAI's (on)" })
  audio?: boolean;

  @OptionalTextField({ description: `${NOT_TAKEN}: xAI has no last frame` })
  last_frame?: string;

  @OptionalTextField({ description: NOT_TAKEN })
  negative_prompt?: string;

  @ApiPropertyOptional({ description: NOT_TAKEN })
  @IsOptionalNotNull()
  @IsInt()
  seed?: number;

  @MetadataField({
    example: { user: 'customer-42' },
    description: 'passed to xAI as it is (`user`, ...); keys the gateway sets itself, and `output` or `storage_options`, are refused',
  })
  metadata?: Record<string, unknown>;
}

export const XAI_EXAMPLES = textAndImageExamples('xai', {
  text: {
    summary: 'xAI grok-imagine-video, text-to-video',
    value: {
      model: 'grok-imagine-video',
      prompt: 'a hummingbird hovering over a red flower',
      duration: 6,
      aspect_ratio: '16:9',
      resolution: '480p',
    },
  },
  image: {
    summary: 'xAI grok-imagine-video-1.5, image-to-video',
    value: {
      model: 'grok-imagine-video-1.5',
      prompt: 'the flower opens slowly',
      input_reference: EXAMPLE_FRAME,
      duration: 5,
      resolution: '720p',
    },
  },
});
