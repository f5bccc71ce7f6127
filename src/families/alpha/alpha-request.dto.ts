import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsOptionalNotNull, MAX_INT32, MaxUtf16Length } from '../../common/http/validation';
import type { RequestExample } from '../family';
import { ALPHA_ASPECT_RATIOS, ALPHA_QUALITIES } from './alpha-models';
import { OptionalTextField, WholeSecondsField } from '../shared/request-fields';

const SEED_MESSAGE = 'seed must be between 0 and 2147483647';
/** The protocol's `int` identifiers: a signed 32-bit integer, never negative. */
const idMessage = (field: string) => `${field} must be an integer between 0 and ${MAX_INT32}`;
/** The provider's prompt limit, counted as it counts (UTF-16 code units); a model's catalog entry says its own for `prompt`. */
export const ALPHA_MAX_PROMPT = 2048;
const lowerCase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Family A `metadata`. */
@ApiSchema({ name: 'AlphaVideoMetadata' })
export class AlphaVideoMetadataDto {
  @ApiPropertyOptional({ enum: ALPHA_QUALITIES, description: 'overrides `resolution` and `size`' })
  @IsOptionalNotNull()
  @Transform(lowerCase)
  @IsIn(ALPHA_QUALITIES, { message: `quality must be one of ${ALPHA_QUALITIES.join(', ')}` })
  quality?: string;

  @ApiPropertyOptional({
    enum: ALPHA_ASPECT_RATIOS,
    description: "text-to-video only; one of the model's aspect_ratios (2:3, 3:2 and 21:9 on c1 and v6)",
  })
  @IsOptionalNotNull()
  @IsIn(ALPHA_ASPECT_RATIOS, { message: `aspect_ratio must be one of ${ALPHA_ASPECT_RATIOS.join(', ')}` })
  aspect_ratio?: string;

  @ApiPropertyOptional({
    enum: ['normal', 'fast'],
    description: '`fast` on models whose route says `fast_motion` (v4.5, v4, v3.5), at 5 s and 360p/540p/720p; twice the price',
  })
  @IsOptionalNotNull()
  @IsIn(['normal', 'fast'], { message: 'motion_mode must be normal or fast' })
  motion_mode?: 'normal' | 'fast';

  @OptionalTextField({ example: 'zoom_in' })
  camera_movement?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 2147483647 })
  @IsOptionalNotNull()
  @IsInt({ message: SEED_MESSAGE })
  @Min(0, { message: SEED_MESSAGE })
  @Max(2147483647, { message: SEED_MESSAGE })
  seed?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_INT32 })
  @IsOptionalNotNull()
  @IsInt({ message: idMessage('template_id') })
  @Min(0, { message: idMessage('template_id') })
  @Max(MAX_INT32, { message: idMessage('template_id') })
  template_id?: number;

  @OptionalTextField({ example: 'anime' })
  style?: string;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  water_mark?: boolean;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(ALPHA_MAX_PROMPT)
  negative_prompt?: string;

  @ApiPropertyOptional({ description: 'with-audio tier; models whose audio is not `none` (c1, v6, v5.6, v5.5)' })
  @IsOptionalNotNull()
  @IsBoolean()
  generate_audio_switch?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_INT32, description: 'an already uploaded image; skips the automatic upload' })
  @IsOptionalNotNull()
  @IsInt({ message: idMessage('img_id') })
  @Min(0, { message: idMessage('img_id') })
  @Max(MAX_INT32, { message: idMessage('img_id') })
  img_id?: number;
}

/**
 * The family A request schema (`alpha/<version>` on `POST /v1/videos`); the rules across fields and
 * per model follow it in AlphaDrafts. Multipart submits (the OpenAI SDK) carry the same fields as
 * form fields, plus an `input_reference` file part.
 */
@ApiSchema({ name: 'CreateVideoRequest', description: 'Family A (`alpha/<version>`) on `/v1/videos`.' })
export class CreateVideoDto {
  @ApiProperty({ example: 'alpha/v6', description: '`alpha/<version>`' })
  @IsString()
  model: string;

  @OptionalTextField({
    example: 'a red fox running through snow at dawn',
    description: `at most the model's prompt_max_length (${ALPHA_MAX_PROMPT} for the builtin models), counted in UTF-16 code units, as the provider counts (an emoji counts 2)`,
  })
  prompt?: string;

  @ApiPropertyOptional({ description: 'image-to-video: an image URL or a base64 data URI' })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  image?: string;

  @ApiPropertyOptional({ type: [String], description: 'array variant of `image` (one image)' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1, { message: 'images takes one image for alpha models' })
  @IsString({ each: true })
  images?: string[];

  @WholeSecondsField(
    { example: 5, default: 5, description: "seconds, one of the model's durations; default its default_duration" },
    'duration must be a whole number of seconds',
  )
  duration?: number;

  @ApiPropertyOptional({ example: '5', description: "OpenAI's name for `duration` (a string)" })
  @IsOptionalNotNull()
  seconds?: string | number;

  @ApiPropertyOptional({ example: '720P', description: '`720P` or `1080P` (also 360P, 540P); beats `size`' })
  @IsOptionalNotNull()
  @IsString()
  @Matches(/^(360|540|720|1080)p$/i, { message: 'resolution must be 720P or 1080P (or 360P, 540P)' })
  resolution?: string;

  @ApiPropertyOptional({ example: '1280x720', description: '`360p`, `540p`, `720p`, `1080p` or `<width>x<height>` (nearest quality)' })
  @IsOptionalNotNull()
  @IsString()
  @Matches(/^((360|540|720|1080)p|[1-9]\d{1,4}x[1-9]\d{1,4})$/i, { message: 'size must be 360p, 540p, 720p, 1080p or <width>x<height>' })
  size?: string;

  @ApiPropertyOptional({
    description: 'image-to-video first frame: a file part (multipart), an image URL or data URI, or `{image_url}`',
    oneOf: [{ type: 'string' }, { type: 'string', format: 'binary' }, { type: 'object', properties: { image_url: { type: 'string' } } }],
  })
  @IsOptionalNotNull()
  input_reference?: unknown;

  @ApiPropertyOptional({ type: AlphaVideoMetadataDto })
  @IsOptionalNotNull()
  @IsObject({ message: 'metadata must be an object' })
  @ValidateNested()
  @Type(() => AlphaVideoMetadataDto)
  metadata?: AlphaVideoMetadataDto;
}

/** A 1x1 PNG: an image-to-video example that needs no network. */
const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const ALPHA_FLAT_EXAMPLES: Record<string, RequestExample> = {
  'alpha-text-to-video': {
    summary: 'Family A, text to video',
    value: { model: 'alpha/v6', prompt: 'a lighthouse at dusk, waves', duration: 5, resolution: '720P' },
  },
  'alpha-image-to-video': {
    summary: 'Family A, image to video (a data URI; an http(s) URL works too)',
    value: { model: 'alpha/v6', prompt: 'the scene slowly comes to life', image: TINY_PNG, duration: 5, resolution: '720P' },
  },
  'alpha-with-metadata': {
    summary: 'Family A, text to video with metadata',
    value: {
      model: 'alpha/v6',
      prompt: 'a red fox running through snow at dawn',
      duration: 5,
      size: '1280x720',
      metadata: { aspect_ratio: '16:9', seed: 42, camera_movement: 'zoom_in' },
    },
  },
};
