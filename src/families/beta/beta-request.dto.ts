import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsNumber, IsString, ValidateNested } from 'class-validator';
import { IntegerBetween, IsOptionalOrEmpty, IsRequired, MAX_INT32 } from '../../common/http/validation';
import type { RequestExample } from '../family';
import { NestedObjectField } from '../shared/request-fields';
import { BETA_BUILTIN_MODELS } from './beta-builtin-models';
import type { BetaMediaType } from './beta-request';

export const BETA_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];
export const BETA_MEDIA_TYPES: BetaMediaType[] = ['first_frame', 'reference_image', 'video'];
const SEED_MESSAGE = `$property must be an integer between 0 and ${MAX_INT32}`;

/** A media element of `metadata.input.media`. */
@ApiSchema({ name: 'BetaMedia' })
export class BetaMediaDto {
  @ApiProperty({
    enum: BETA_MEDIA_TYPES,
    description: 'first_frame: i2v; reference_image: r2v (1 to 9) and video-edit (0 to 5); video: video-edit (exactly 1)',
  })
  @IsIn(BETA_MEDIA_TYPES, { message: `$property must be one of ${BETA_MEDIA_TYPES.join(', ')}` })
  type: BetaMediaType;

  @ApiProperty({ description: 'Publicly accessible http(s) URL. Images: JPEG/PNG/WEBP, at most 10 MB; video: MP4/MOV, at most 100 MB' })
  @IsRequired()
  @IsString({ message: '$property is required' })
  url: string;
}

@ApiSchema({ name: 'BetaMediaInput' })
export class BetaMediaInputDto {
  @ApiPropertyOptional({
    type: [BetaMediaDto],
    description: 'Media in order; r2v prompts name reference images [Image 1], [Image 2], ... in this order',
  })
  @IsOptionalOrEmpty()
  @IsArray({ message: '$property must be an array of {type, url} elements' })
  @ValidateNested({ each: true, message: '$property must be an object with type and url' })
  @Type(() => BetaMediaDto)
  media?: BetaMediaDto[];
}

/** Family B `metadata`. Which model uses which field is checked after this (beta-body.parser.ts). */
@ApiSchema({ name: 'BetaVideoMetadata' })
export class BetaMetadataDto {
  @ApiPropertyOptional({
    enum: BETA_RATIOS,
    default: '16:9',
    description: 't2v and r2v only; ignored by i2v (follows the image) and video-edit',
  })
  @IsOptionalOrEmpty()
  @IsString()
  ratio?: string;

  @ApiPropertyOptional({ default: true, description: 'Brand watermark at the bottom right' })
  @IsOptionalOrEmpty()
  @IsBoolean({ message: '$property must be a boolean' })
  watermark?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_INT32, description: 'Generated automatically when absent' })
  @IsOptionalOrEmpty()
  @IntegerBetween(0, MAX_INT32, SEED_MESSAGE)
  seed?: number;

  @ApiPropertyOptional({
    enum: ['auto', 'origin'],
    default: 'auto',
    description: 'video-edit only: auto (model decides) or origin (keep the original audio)',
  })
  @IsOptionalOrEmpty()
  @IsString()
  audio_setting?: string;

  @NestedObjectField(BetaMediaInputDto, { description: 'Media inputs of r2v, video-edit and (alternatively to input_reference) i2v' })
  input?: BetaMediaInputDto;
}

/**
 * The family B request schema, on both forms (`/v1/video/generations` and `/v1/videos`): it checks
 * every field's type and range; which media and parameters each model takes is checked after it.
 * A missing field and an empty one (`""`, an empty form field) are "not given"; `null` is of no type.
 */
@ApiSchema({
  name: 'BetaVideoRequest',
  description:
    'Family B (`beta-1.0-*`) on `/v1/video/generations` and `/v1/videos`. Actions: textGenerate (t2v), imageGenerate (i2v), ' +
    'referenceGenerate (r2v), videoEdit (video-edit). video-edit is billed as a 15 s output (its length follows the input video and is ' +
    'known only afterwards).',
})
export class BetaVideoRequestDto {
  @ApiProperty({
    enum: Object.keys(BETA_BUILTIN_MODELS),
    description: 'beta-1.0-t2v (text), -i2v (first frame), -r2v (1 to 9 reference images), -video-edit (1 video + 0 to 5 reference images)',
  })
  @IsString()
  model: string;

  @ApiProperty({
    example: 'a paper boat drifting down a rainy street',
    description:
      'At most 5000 non-Chinese or 2500 Chinese characters; longer prompts are truncated. A mixed prompt is measured with each Chinese character counting 2 against 5000.',
  })
  @IsRequired()
  @IsString()
  prompt: string;

  @ApiPropertyOptional({
    example: '1080P',
    description:
      "one of the model's resolutions (`720P` or `1080P` for the builtin models), default its first; on /v1/videos also a pixel size (`1280x720`, `720x1280`): its short edge, and the nearest ratio",
  })
  @IsOptionalOrEmpty()
  @IsString()
  size?: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: 5,
    description:
      "Seconds, one of the model's durations (3 to 15 for the builtin models); default its default_duration. Ignored by video-edit (the output follows the input video, at most 15 s)",
  })
  @IsOptionalOrEmpty()
  // The type here; the model's lengths (its catalog entry) right after, in the interface's words.
  @IsNumber({}, { message: '$property must be an integer' })
  duration?: number;

  @ApiPropertyOptional({
    description: 'beta-1.0-i2v only: publicly accessible URL of the first-frame image (JPEG/PNG/WEBP, at most 10 MB)',
  })
  @IsOptionalOrEmpty()
  @IsString()
  input_reference?: string;

  @NestedObjectField(BetaMetadataDto)
  metadata?: BetaMetadataDto;
}

const BETA_PROMPT = 'a paper boat drifting down a rainy street';

export const BETA_EXAMPLES: Record<'flat' | 'unified', Record<string, RequestExample>> = {
  flat: {
    'beta-text-to-video': {
      summary: 'Family B, text to video (OpenAI spellings: seconds, pixel size)',
      value: { model: 'beta-1.0-t2v', prompt: BETA_PROMPT, seconds: '5', size: '1280x720' },
    },
  },
  unified: {
    'beta-text-to-video': {
      summary: 'Family B, text to video',
      value: { model: 'beta-1.0-t2v', prompt: BETA_PROMPT, size: '720P', duration: 5, metadata: { ratio: '16:9' } },
    },
  },
};
