import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIO_SUPPORT, MODEL_MODES, MODEL_STATUSES } from '../../catalog/catalog-entry';

export class ModelPriceDto {
  @ApiProperty({ example: '720p', description: 'a resolution, or `*` for any' }) resolution: string;
  @ApiProperty({ enum: ['second', 'clip'] }) unit: 'second' | 'clip';
  @ApiPropertyOptional({ description: 'per-clip prices: the clip length they are for' }) duration?: number;
  @ApiProperty({ example: 700, description: "quota units per second or clip, at the caller's group ratio" }) quota: number;
  @ApiProperty({ example: 0.07 }) usd: number;
  @ApiPropertyOptional({ description: 'with audio' }) audio_quota?: number;
  @ApiPropertyOptional() audio_usd?: number;
}

export class VideoModelDto {
  @ApiProperty({ example: 'kling-v2-5-turbo' }) id: string;
  @ApiProperty({ nullable: true, type: String }) label: string | null;
  @ApiProperty({ example: ['fal-kling-v2-5-turbo-pro'], description: 'other ids that name this model: each submits and is charged as it' })
  aliases: readonly string[];
  @ApiPropertyOptional({ example: 'kling', description: "the model's maker" }) owned_by?: string;
  @ApiPropertyOptional({ example: '2025-09-23', description: 'when the maker released it (YYYY-MM-DD)' }) released_at?: string;
  @ApiProperty({ enum: MODEL_MODES, isArray: true }) modes: readonly string[];
  @ApiProperty({ example: [5, 10], description: 'seconds: a list, or a range `{min, max}`' }) durations: unknown;
  @ApiProperty({ example: 5 }) default_duration: number;
  @ApiProperty({ example: ['720p', '1080p'], description: 'the first is the default; empty: any' }) resolutions: readonly string[];
  @ApiProperty({ example: ['16:9', '9:16', '1:1'] }) aspect_ratios: readonly string[];
  @ApiProperty({ enum: AUDIO_SUPPORT }) audio: string;
  @ApiProperty({ nullable: true, type: Number }) max_reference_images: number | null;
  @ApiProperty({ nullable: true, type: Number }) prompt_max_length: number | null;
  @ApiProperty({ type: [ModelPriceDto] }) prices: ModelPriceDto[];
  @ApiProperty({ enum: MODEL_STATUSES }) status: string;
  @ApiPropertyOptional({ description: 'deprecated: unix seconds after which submits are refused (410 model_retired)' }) sunset_at?: number;
  @ApiPropertyOptional({ description: 'the model to use instead, where the caller may use it' }) replacement?: string;
}

/** Present when a page was asked for (`limit` or `after`), as OpenAI's lists give them. */
class ModelPagingDto {
  @ApiPropertyOptional({ nullable: true, type: String, description: 'paged: the first id of this page' }) first_id?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'paged: the `after` of the next page' }) last_id?: string | null;
  @ApiPropertyOptional({ description: 'paged: whether more models follow' }) has_more?: boolean;
}

export class VideoModelListDto extends ModelPagingDto {
  @ApiProperty({ type: [VideoModelDto] }) data: VideoModelDto[];
}

export class OpenAiModelDto {
  @ApiProperty({ example: 'kling-v2-5-turbo' }) id: string;
  @ApiProperty({ example: 'model' }) object: 'model';
  @ApiProperty({ example: 1767268800, description: 'unix seconds' }) created: number;
  @ApiProperty({ example: 'kling', description: "the model's maker (an entry without one: its first route's platform)" }) owned_by: string;
}

export class OpenAiModelListDto extends ModelPagingDto {
  @ApiProperty({ example: 'list' }) object: 'list';
  @ApiProperty({ type: [OpenAiModelDto] }) data: OpenAiModelDto[];
}

export class QuoteDto {
  @ApiProperty({ example: 'kling-v2-5-turbo' }) model: string;
  @ApiProperty({ example: 5 }) seconds: number;
  @ApiProperty({ example: '720p' }) resolution: string;
  @ApiProperty({ example: false }) audio: boolean;
  @ApiProperty({ example: 2100, description: 'quota units the submit would charge now' }) quota: number;
  @ApiProperty({ example: 0.21 }) usd: number;
  @ApiProperty({ example: 'kling-v2-5-turbo 720p 5s: 2100 x group default ratio 1' }) detail: string;
}
