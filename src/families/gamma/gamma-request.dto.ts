import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { Equals, IsArray, IsBoolean, IsIn, IsNumber, IsObject, IsString, Matches, ValidateIf, ValidateNested } from 'class-validator';
import { IntegerBetween, IsOptionalOrEmpty, IsRequired, MAX_INT32 } from '../../common/http/validation';
import type { RequestExample } from '../family';
import { NestedObjectField } from '../shared/request-fields';
import { GAMMA_BUILTIN_MODELS } from './gamma-builtin-models';

/** The provider's resolutions and ratios; a model's catalog entry says which of them it makes. */
export const GAMMA_RESOLUTIONS = ['480p', '720p', '1080p'] as const;
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
/** The provider's limits, for an entry that names none: reference images, prompt length. */
export const GAMMA_MAX_REFERENCES = 9;
export const GAMMA_MAX_PROMPT = 5000;
const SEED_MESSAGE = `$property must be an integer between 0 and ${MAX_INT32}`;
/** `asset://<id>` references must be well formed; any other URL is left to the media checks. */
export const ASSET_REF = /^asset:\/\/([A-Za-z0-9][A-Za-z0-9._:-]{0,127})$/;
const ASSET_OR_OTHER = /^(?!asset:\/\/)|^asset:\/\/[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const lowerCase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);
/** A field that may be left out: missing, `null` or `""`. */
const Omittable = () => ValidateIf((_object, value) => value !== undefined && value !== null && value !== '');

@ApiSchema({ name: 'GammaImageUrl' })
export class GammaImageUrlDto {
  @ApiProperty({
    example: 'asset://asset-20260101-abc',
    description: '`asset://<asset_id>` of an active verified asset, or a public http(s) image URL',
  })
  @IsRequired()
  @IsString({ message: '$property is required' })
  @Matches(ASSET_OR_OTHER, { message: '$property must be asset://<asset_id>' })
  url: string;
}

@ApiSchema({ name: 'GammaContentItem' })
export class GammaContentItemDto {
  @ApiProperty({ enum: ['image_url'] })
  @Equals('image_url', { message: '$property must be image_url' })
  type: 'image_url';

  @ApiProperty({ type: GammaImageUrlDto })
  @IsObject({ message: '$property.url is required' })
  @ValidateNested()
  @Type(() => GammaImageUrlDto)
  image_url: GammaImageUrlDto;

  @ApiPropertyOptional({ enum: ['reference_image'] })
  @Omittable()
  @Equals('reference_image', { message: '$property must be reference_image' })
  role?: 'reference_image';
}

/** Family C `metadata`. */
@ApiSchema({ name: 'GammaVideoMetadata' })
export class GammaMetadataDto {
  @ApiPropertyOptional({
    type: [GammaContentItemDto],
    description: `reference images, up to the model's max_reference_images (${GAMMA_MAX_REFERENCES} for the builtin models); \`asset://<asset_id>\` needs verification`,
  })
  @IsOptionalOrEmpty()
  @IsArray()
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => GammaContentItemDto)
  content?: GammaContentItemDto[];

  @ApiPropertyOptional({
    enum: GAMMA_RESOLUTIONS,
    default: '720p',
    description: "one of the model's resolutions, default its first (720p; no 1080p on gamma-2-0-fast)",
  })
  @IsOptionalOrEmpty()
  @Transform(lowerCase)
  @IsString()
  @IsIn(GAMMA_RESOLUTIONS, { message: `$property must be one of ${GAMMA_RESOLUTIONS.join(', ')}` })
  resolution?: (typeof GAMMA_RESOLUTIONS)[number];

  @ApiPropertyOptional({ enum: RATIOS, description: "one of the model's aspect_ratios when it lists them (the first the default)" })
  @IsOptionalOrEmpty()
  @IsString()
  @IsIn(RATIOS, { message: `$property must be one of ${RATIOS.join(', ')}` })
  ratio?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_INT32 })
  @IsOptionalOrEmpty()
  @IntegerBetween(0, MAX_INT32, SEED_MESSAGE)
  seed?: number;

  @ApiPropertyOptional()
  @IsOptionalOrEmpty()
  @IsBoolean({ message: '$property must be a boolean' })
  watermark?: boolean;
}

/**
 * The family C request schema (`POST /v1/video/generations` with `gamma-2-0`, `gamma-2-0-fast` or
 * another family C model of the catalog): every field's type. The model's entry (lengths, resolutions,
 * ratios, prompt length, reference images), then asset ownership and state, are checked after it,
 * before any charge.
 */
@ApiSchema({ name: 'GammaVideoRequest', description: 'Family C (`gamma-2-0*`) on `/v1/video/generations`, with verified portrait assets.' })
export class GammaVideoRequestDto {
  @ApiProperty({ enum: GAMMA_BUILTIN_MODELS })
  @IsString()
  model: string;

  @ApiProperty({
    example: 'the presenter waves and smiles at the camera',
    description: `at most the model's prompt_max_length (${GAMMA_MAX_PROMPT} for the builtin models)`,
  })
  @IsRequired()
  @IsString()
  prompt: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: 5,
    description: "seconds, one of the model's durations (4 to 15 for the builtin models); default its default_duration",
  })
  @IsOptionalOrEmpty()
  // The type here; the model's lengths (its catalog entry) right after.
  @IsNumber({}, { message: '$property must be an integer' })
  duration?: number;

  @NestedObjectField(GammaMetadataDto)
  metadata?: GammaMetadataDto;
}

export const GAMMA_UNIFIED_EXAMPLES: Record<string, RequestExample> = {
  'gamma-text-to-video': {
    summary: 'Family C, text to video (with verified assets: metadata.content [{type: image_url, image_url: {url: asset://<asset_id>}}])',
    value: {
      model: 'gamma-2-0',
      prompt: 'a presenter waves at the camera in a bright studio',
      duration: 5,
      metadata: { resolution: '720p', ratio: '16:9' },
    },
  },
};
