import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsOptionalNotNull, MAX_INT32, MaxUtf16Length } from '../../common/http/validation';
import { codeList } from '../shared/code-list';
import { textAndImageExamples } from '../shared/request-examples';
import { VIDU_ASPECT_RATIOS, VIDU_MAX_PROMPT, VIDU_MODELS, VIDU_RESOLUTIONS } from './vidu-models';
import {
  EXAMPLE_FRAME,
  ImageSourceField,
  MetadataField,
  OptionalBooleanField,
  OptionalTextField,
  PixelSizeField,
  SeedField,
  URL_OR_DATA_URI_MESSAGE,
  WholeSecondsField,
} from '../shared/request-fields';

/**
 * The request schema of a Vidu model, on both forms (`seconds` arrives here as `duration`). What a
 * model takes (lengths, resolutions, aspect ratios, modes, audio) is its catalog entry's, checked
 * after this (vidu-task-rules.ts).
 */
@ApiSchema({
  name: 'ViduVideoRequest',
  description: `Vidu (${codeList(Object.keys(VIDU_MODELS))}, and the catalog's other \`vidu\` routes): text-to-video, image-to-video with \`input_reference\`, start and end frames with \`last_frame\`.`,
})
export class ViduVideoRequestDto {
  @ApiProperty({ enum: Object.keys(VIDU_MODELS), example: 'viduq3-turbo' })
  @IsString()
  model: string;

  @ApiPropertyOptional({
    example: 'a paper lantern drifting over a night river',
    maxLength: VIDU_MAX_PROMPT,
    description: 'required for text-to-video',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(VIDU_MAX_PROMPT)
  prompt?: string;

  @WholeSecondsField({ example: 5, description: "seconds (also `seconds`): the model's lengths (q3 1 to 16, q2 1 to 10); default 5" })
  duration?: number;

  @PixelSizeField({
    example: '1280x720',
    description: '`<width>x<height>`: sets aspect_ratio and resolution (its short side: 540, 720 or 1080)',
  })
  size?: string;

  @OptionalTextField({
    example: '16:9',
    description: `text-to-video only (with images the video follows them): ${VIDU_ASPECT_RATIOS.join(', ')}; default the model's first`,
  })
  aspect_ratio?: string;

  @OptionalTextField({ example: '720p', description: `${VIDU_RESOLUTIONS.join(', ')}; default the model's first (720p)` })
  resolution?: string;

  @ImageSourceField(URL_OR_DATA_URI_MESSAGE, {
    description:
      'first frame (image-to-video): a file part (multipart), an http(s) URL or a data URI of a PNG, JPEG or WEBP image (at most 7 MB inline)',
  })
  input_reference?: string;

  @ImageSourceField(URL_OR_DATA_URI_MESSAGE, {
    description: "end frame (Vidu's start-end2video, with input_reference): an http(s) URL or a data URI",
  })
  last_frame?: string;

  @OptionalBooleanField({
    example: true,
    description: "audio: the q3 models' native audio-video (default on), the q2 models' background music (`bgm`, default off)",
  })
  audio?: boolean;

  @OptionalTextField({ description: 'not taken by Vidu (refused)' })
  negative_prompt?: string;

  @SeedField(MAX_INT32, { description: '0 or absent: random' })
  seed?: number;

  @MetadataField({
    example: { movement_amplitude: 'auto' },
    description:
      'passed to Vidu as it is (`movement_amplitude`, `watermark`, `wm_position`, `payload`, ...); keys the gateway sets itself, and `off_peak`, are refused',
  })
  metadata?: Record<string, unknown>;
}

export const VIDU_EXAMPLES = textAndImageExamples('vidu', {
  text: {
    summary: 'Vidu viduq3-turbo, text-to-video with audio',
    value: {
      model: 'viduq3-turbo',
      prompt: 'a paper lantern drifting over a night river',
      duration: 5,
      aspect_ratio: '16:9',
      resolution: '720p',
    },
  },
  image: {
    summary: 'Vidu viduq2-turbo, image-to-video',
    value: { model: 'viduq2-turbo', prompt: 'the lantern rises slowly', input_reference: EXAMPLE_FRAME, duration: 4, resolution: '720p' },
  },
});
