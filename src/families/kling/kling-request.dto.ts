import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString } from 'class-validator';
import { IsOptionalNotNull, MaxUtf16Length } from '../../common/http/validation';
import type { RequestExample, SubmitForm } from '../family';
import { KLING_MODELS, KLING_RATIOS } from './kling-models';
import { ImageSourceField, MetadataField, PixelSizeField, URL_OR_DATA_URI_MESSAGE, WholeSecondsField } from '../shared/request-fields';

export const KLING_MAX_PROMPT = 2500;

/**
 * The request schema of a Kling model, on both forms (`seconds` arrives here as `duration`). The
 * model's rules across fields (durations, modes, image-to-video only...) are KlingTaskRules'.
 */
@ApiSchema({ name: 'KlingVideoRequest', description: 'Kling (`kling-*`): text-to-video, or image-to-video with `input_reference`.' })
export class KlingVideoRequestDto {
  @ApiProperty({ enum: Object.keys(KLING_MODELS), example: 'kling-v2-6' })
  @IsString()
  model: string;

  @ApiPropertyOptional({
    example: 'a red fox running through fresh snow',
    maxLength: KLING_MAX_PROMPT,
    description: 'required for text-to-video',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(KLING_MAX_PROMPT, { message: `$property must be at most ${KLING_MAX_PROMPT} characters` })
  prompt?: string;

  @WholeSecondsField({
    example: 5,
    description: "seconds (also `seconds`), one of the model's: 5 or 10 (kling-v2.x, v1.6), 3 to 15 (kling-v3, kling-v3-omni); default 5",
  })
  duration?: number;

  @PixelSizeField({
    example: '1920x1080',
    description: '`<width>x<height>`: 16:9, 9:16 or 1:1 at 720 or 1080 pixels on the short side (sets aspect_ratio and resolution)',
  })
  size?: string;

  @ApiPropertyOptional({
    enum: KLING_RATIOS,
    example: '16:9',
    description: 'text-to-video only (image-to-video follows the image); default 16:9',
  })
  @IsOptionalNotNull()
  @IsIn(KLING_RATIOS)
  aspect_ratio?: string;

  @ApiPropertyOptional({
    enum: ['720p', '1080p'],
    description: "720p is Kling's `std` mode, 1080p its `pro` mode; default: the model's first",
  })
  @IsOptionalNotNull()
  @IsIn(['720p', '1080p', '720P', '1080P'])
  resolution?: string;

  @ImageSourceField(URL_OR_DATA_URI_MESSAGE, {
    description:
      'first frame (image-to-video): a file part (multipart), an http(s) URL or a `data:image/png|jpeg;base64,` URI; jpg or png, at most 10 MB',
  })
  input_reference?: string;

  @ImageSourceField(URL_OR_DATA_URI_MESSAGE, {
    description: "last frame (Kling's `image_tail`): an http(s) URL or a data URI; with input_reference, at 1080p",
  })
  last_frame?: string;

  @ApiPropertyOptional({ maxLength: KLING_MAX_PROMPT, example: 'blurry, low quality' })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(KLING_MAX_PROMPT, { message: `$property must be at most ${KLING_MAX_PROMPT} characters` })
  negative_prompt?: string;

  @ApiPropertyOptional({ description: 'not taken by Kling models (refused)' })
  @IsOptionalNotNull()
  @IsInt()
  seed?: number;

  @MetadataField({
    example: { cfg_scale: 0.5 },
    description:
      'passed to Kling as it is (`mode`, `sound` on kling-v2-6 and kling-v3*, `cfg_scale` on kling-v1-6, `camera_control`, `watermark_info`, Kling 3 `multi_shot`/`shot_type`/`multi_prompt`, `element_list`, `voice_list`, omni `video_list`...); keys the gateway sets itself are refused',
  })
  metadata?: Record<string, unknown>;
}

const example = (summary: string, value: Record<string, unknown>): RequestExample => ({ summary, value });

export const KLING_EXAMPLES: Partial<Record<SubmitForm, Record<string, RequestExample>>> = {
  flat: {
    'kling-t2v': example('Kling text-to-video (kling-v2-6, 1080p)', {
      model: 'kling-v2-6',
      prompt: 'a red fox running through fresh snow',
      seconds: '5',
      size: '1920x1080',
    }),
  },
  unified: {
    'kling-t2v': example('Kling text-to-video (kling-v2-5-turbo)', {
      model: 'kling-v2-5-turbo',
      prompt: 'a red fox running through fresh snow',
      duration: 5,
      aspect_ratio: '16:9',
      resolution: '720p',
    }),
  },
};
