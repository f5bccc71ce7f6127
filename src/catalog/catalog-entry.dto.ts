import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  buildMessage,
  ValidateNested,
} from 'class-validator';
import { ColumnLength, IsOptionalNotNull } from '../common/http/validation';
import { AUDIO_SUPPORT, MODEL_MODES, MODEL_STATUSES } from './catalog-entry';

/** The largest price an operator may set (PricingService's MAX_PRICE). */
const MAX_PRICE = 1_000_000_000_000;
const MAX_SECONDS = 600;
/** The largest cost in USD an operator may set on a route (per second or per clip). */
const MAX_COST_USD = 1_000_000;
/** What a public model id may be: what clients type, and what fits the price table's and tasks' model column. */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;

/** The latest `sunset_at` (9999-12-31T23:59:59Z): every date the gateway prints (`Sunset`), and a bigint on every database. */
export const MAX_SUNSET_AT = 253_402_300_799;
/** An upstream model id (each mode's): what a route sends the provider. */
const MAX_UPSTREAM_MODEL = 256;
/** A route's options as JSON, in UTF-8 bytes. */
export const MAX_ROUTE_OPTIONS_BYTES = 16_384;
/** An entry's routes as stored (one JSON text column): within MariaDB's TEXT (65,535 bytes), the smallest of the three databases'. */
export const MAX_ROUTES_BYTES = 60_000;
/**
 * The largest catalog import body (POST /api/admin/models/import), and so the largest export the
 * catalog may grow to (a write that would pass it is refused): an export must import again.
 */
export const CATALOG_FILE_LIMIT_BYTES = 16 * 1024 * 1024;
/** A resolution or aspect ratio: what fits the price table's resolution column. */
const MAX_LABEL_OF_SIZE = 16;

const isSeconds = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SECONDS;

/** `[5, 10]` or `{"min": 3, "max": 15}`: whole seconds from 1 to 600. */
const IsDurations = () =>
  ValidateBy({
    name: 'isDurations',
    validator: {
      validate: (value: unknown) => {
        if (Array.isArray(value)) return value.length > 0 && value.length <= MAX_SECONDS && value.every(isSeconds);
        if (typeof value !== 'object' || value === null) return false;
        const { min, max, ...rest } = value as Record<string, unknown>;
        return Object.keys(rest).length === 0 && isSeconds(min) && isSeconds(max) && (min as number) <= (max as number);
      },
      defaultMessage: () =>
        `durations must be a list of at most ${MAX_SECONDS} whole seconds ([5, 10]) or a range ({"min": 3, "max": 15}), each from 1 to ${MAX_SECONDS}`,
    },
  });

const isUpstreamId = (id: unknown) => typeof id === 'string' && id.trim() !== '' && [...id].length <= MAX_UPSTREAM_MODEL;

/** A string, or an object by mode (`{"text-to-video": "...", "image-to-video": "..."}`) of non-empty strings, each at most 256 characters. */
const IsUpstreamModel = () =>
  ValidateBy({
    name: 'isUpstreamModel',
    validator: {
      validate: (value: unknown) => {
        if (typeof value === 'string') return isUpstreamId(value);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
        const entries = Object.entries(value);
        return entries.length > 0 && entries.every(([mode, id]) => (MODEL_MODES as readonly string[]).includes(mode) && isUpstreamId(id));
      },
      defaultMessage: () =>
        `upstream_model must be a non-empty string, or an object by mode (${MODEL_MODES.join(', ')}) of strings, each at most ${MAX_UPSTREAM_MODEL} characters`,
    },
  });

/** JSON of at most `max` UTF-8 bytes (what a text column holds). */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

const IsJsonWithin = (max: number) =>
  ValidateBy({
    name: 'isJsonWithin',
    constraints: [max],
    validator: {
      validate: (value: unknown) => jsonBytes(value) <= max,
      defaultMessage: buildMessage((each) => `${each}$property must be at most $constraint1 bytes as JSON`),
    },
  });

/** What a price row and a cost row share: the resolution, the unit and (per clip) the clip length they are for. */
class CatalogRateRowDto {
  @ApiProperty({ example: '720p', description: 'a resolution of the model, or `*` for any' })
  @IsString()
  @ColumnLength(1, 16)
  resolution: string;

  @ApiProperty({ enum: ['second', 'clip'] })
  @IsIn(['second', 'clip'])
  unit: 'second' | 'clip';

  @ApiPropertyOptional({ description: 'per-clip rows: the clip length in seconds; 0 or absent: any' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_SECONDS)
  duration?: number;
}

export class CatalogPriceDto extends CatalogRateRowDto {
  @ApiProperty({ example: 700, description: 'quota units per second or per clip' })
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE)
  price: number;

  @ApiPropertyOptional({ nullable: true, description: 'with audio; absent or null: twice `price`' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE)
  audio_price?: number | null;
}

/** What the provider charges the operator on a route: `prices`' shape, in USD (never shown to customers). */
export class CatalogRouteCostDto extends CatalogRateRowDto {
  @ApiProperty({ example: 0.05, description: 'USD per second or per clip' })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number (USD)' })
  @Min(0)
  @Max(MAX_COST_USD)
  usd: number;

  @ApiPropertyOptional({ nullable: true, description: 'with audio, USD; absent or null: twice `usd`' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number (USD)' })
  @Min(0)
  @Max(MAX_COST_USD)
  audio_usd?: number | null;
}

export class CatalogRouteDto {
  @ApiProperty({ example: 'kling', description: 'a platform the gateway speaks (GET /api/admin/platforms)' })
  @IsString()
  platform: string;

  @ApiProperty({ example: 'kling-v3', description: 'what the provider is sent: a string, or an object by mode' })
  @IsUpstreamModel()
  upstream_model: string | Record<string, string>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "the platform's own options, checked by its family" })
  @IsOptionalNotNull()
  @IsObject()
  @IsJsonWithin(MAX_ROUTE_OPTIONS_BYTES)
  options?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: [CatalogRouteCostDto],
    description:
      "what the provider charges the operator on this route, in USD, in `prices`' shape: a task's provider cost where its provider reports none in money; admin only",
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(256)
  @ValidateNested({ each: true })
  @Type(() => CatalogRouteCostDto)
  cost?: CatalogRouteCostDto[];
}

/** A catalog entry as the admin API takes it (POST; PATCH takes any subset, `null` clearing an optional field). */
export class CatalogEntryDto {
  @ApiProperty({ example: 'kling-v3', description: 'the public model id clients send (unique)' })
  @IsString()
  @Matches(MODEL_ID_PATTERN, { message: 'id must be 1 to 64 letters, digits and . _ : / - (starting with a letter or digit)' })
  id: string;

  @ApiPropertyOptional({ example: 'Kling 3.0', nullable: true })
  @IsOptional()
  @IsString()
  @ColumnLength(1, 128)
  label?: string | null;

  @ApiPropertyOptional({
    example: ['kling-v3-0'],
    description: 'other ids that resolve to this entry (submits, quotes, key allowlists, channel lists): unique across every id and alias',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @Matches(MODEL_ID_PATTERN, {
    each: true,
    message: 'each alias must be 1 to 64 letters, digits and . _ : / - (starting with a letter or digit)',
  })
  aliases?: string[] | null;

  @ApiPropertyOptional({ example: 'kling', nullable: true, description: "the model's maker, as /v1/models shows it (`owned_by`)" })
  @IsOptional()
  @IsString()
  @ColumnLength(1, 64)
  owned_by?: string | null;

  @ApiPropertyOptional({ example: '2026-02-05', nullable: true, description: 'when the maker released it, `YYYY-MM-DD`' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'released_at must be a date, YYYY-MM-DD' })
  released_at?: string | null;

  @ApiProperty({ enum: MODEL_MODES, isArray: true, example: ['text-to-video', 'image-to-video'] })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(MODEL_MODES, { each: true })
  modes: string[];

  @ApiProperty({ example: { min: 3, max: 15 }, description: 'a list of seconds, or a range `{min, max}`' })
  @IsDurations()
  durations: number[] | { min: number; max: number };

  @ApiPropertyOptional({ example: 5, nullable: true, description: 'one of `durations`; absent: the first' })
  @IsOptional()
  @IsInt()
  default_duration?: number | null;

  @ApiProperty({ example: ['720p', '1080p'], description: 'the first is the default; empty: any' })
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @ColumnLength(1, MAX_LABEL_OF_SIZE, { each: true })
  resolutions: string[];

  @ApiProperty({ example: ['16:9', '9:16', '1:1'], description: 'the first is the default; empty: not checked' })
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @ColumnLength(1, MAX_LABEL_OF_SIZE, { each: true })
  aspect_ratios: string[];

  @ApiProperty({ enum: AUDIO_SUPPORT })
  @IsIn(AUDIO_SUPPORT)
  audio: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(64)
  max_reference_images?: number | null;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  prompt_max_length?: number | null;

  @ApiProperty({ type: [CatalogPriceDto] })
  @IsArray()
  @ArrayMaxSize(256)
  @ValidateNested({ each: true })
  @Type(() => CatalogPriceDto)
  prices: CatalogPriceDto[];

  @ApiProperty({ type: [CatalogRouteDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(16)
  @ValidateNested({ each: true })
  @Type(() => CatalogRouteDto)
  routes: CatalogRouteDto[];

  @ApiPropertyOptional({ enum: MODEL_STATUSES, default: 'active' })
  @IsOptionalNotNull()
  @IsIn(MODEL_STATUSES)
  status?: string;

  @ApiPropertyOptional({
    nullable: true,
    maximum: MAX_SUNSET_AT,
    description: 'deprecated models: unix seconds after which submits are refused (410); at most 9999-12-31T23:59:59Z',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SUNSET_AT, { message: `sunset_at must be unix seconds no later than ${MAX_SUNSET_AT} (9999-12-31T23:59:59Z)` })
  sunset_at?: number | null;

  @ApiPropertyOptional({ nullable: true, description: 'the model id to use instead' })
  @IsOptional()
  @IsString()
  @ColumnLength(1, 64)
  replacement?: string | null;
}

export class UpdateCatalogEntryDto extends PartialType(CatalogEntryDto) {}

export class CatalogFileDto {
  @ApiProperty({ example: 1 })
  @IsIn([1], { message: 'version must be 1' })
  version: number;

  @ApiProperty({ type: [CatalogEntryDto] })
  @IsArray()
  @ArrayMaxSize(5000)
  @ValidateNested({ each: true })
  @Type(() => CatalogEntryDto)
  models: CatalogEntryDto[];
}
