import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { ColumnLength, IsOptionalNotNull } from '../../common/validation';
import { FAMILY_PLATFORMS } from '../../families/family-registry';
import type { Platform } from '../../upstream/channel.entity';

/** `{public model id: upstream model name}`, every name a non-empty string. */
const IsModelMapping = () =>
  ValidateBy({
    name: 'isModelMapping',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((name) => typeof name === 'string' && name.trim() !== ''),
      defaultMessage: () => 'model_mapping must map public model ids to upstream model names (non-empty strings)',
    },
  });

/** The documented channel settings; anything else is refused (a typo would otherwise be ignored silently). */
export class ChannelSettingsDto {
  @ApiPropertyOptional({ example: 10000, description: 'overrides the family default poll interval (A 4000, B 10000, C 10000)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  poll_interval_ms?: number | null;

  @ApiPropertyOptional({ example: 20, description: 'in-flight upstream calls on this channel' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  max_concurrency?: number | null;

  @ApiPropertyOptional({ example: 'https://open.provider.example.com', description: 'family C control plane (verification and assets)' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  control_base_url?: string | null;

  @ApiPropertyOptional({ description: 'family C control plane access key (shown as ***)' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  access_key?: string | null;

  @ApiPropertyOptional({ description: 'family C control plane secret key (never shown)' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  secret_key?: string | null;

  @ApiPropertyOptional({ example: 'cn-beijing', default: 'cn-beijing', description: 'family C control plane region' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  region?: string | null;

  @ApiPropertyOptional({ example: 'default', default: 'default', description: 'family C control plane project' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  project_name?: string | null;
}

export class CreateChannelDto {
  @ApiProperty({ example: 'alpha-main' })
  @IsString()
  @ColumnLength(1, 128)
  name: string;

  @ApiProperty({ enum: FAMILY_PLATFORMS })
  @IsIn(FAMILY_PLATFORMS as Platform[])
  platform: Platform;

  @ApiProperty({ example: 'https://provider.example.com' })
  @IsString()
  @ColumnLength(1, 512)
  base_url: string;

  @ApiProperty({ description: 'provider key; stored, never shown again' })
  @IsString()
  @ColumnLength(1, 512)
  api_key: string;

  @ApiProperty({ example: ['alpha/v6', 'alpha/c1'], description: "public model ids of the channel's platform" })
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  models: string[];

  @ApiPropertyOptional({ example: { 'alpha/v6': 'v6' } })
  @IsOptionalNotNull()
  @IsModelMapping()
  model_mapping?: Record<string, string>;

  @ApiPropertyOptional({ type: ChannelSettingsDto })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ChannelSettingsDto)
  settings?: ChannelSettingsDto;

  @ApiPropertyOptional({ example: ['default'], description: 'user groups allowed (exact names); absent means all' })
  @IsOptionalNotNull()
  @IsArray()
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  groups?: string[];

  @ApiPropertyOptional({ default: 0 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(-1000)
  @Max(1000)
  priority?: number;

  @ApiPropertyOptional({ default: 1 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(10000)
  weight?: number;

  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] })
  @IsOptionalNotNull()
  @IsIn(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';
}

export class UpdateChannelDto {
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @ColumnLength(1, 128) name?: string;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @ColumnLength(1, 512) base_url?: string;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @ColumnLength(1, 512) api_key?: string;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsArray() @ArrayMinSize(1) @IsString({ each: true }) models?: string[];
  @ApiPropertyOptional() @IsOptionalNotNull() @IsModelMapping() model_mapping?: Record<string, string>;
  @ApiPropertyOptional({ type: ChannelSettingsDto, description: 'merged into the current settings; null removes a setting' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ChannelSettingsDto)
  settings?: ChannelSettingsDto;
  @ApiPropertyOptional({ description: 'user groups allowed (exact names); empty means all' }) @IsOptionalNotNull() @IsArray() @IsString({ each: true }) @Length(1, 64, { each: true }) groups?: string[];
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(-1000) @Max(1000) priority?: number;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(0) @Max(10000) weight?: number;
  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] }) @IsOptionalNotNull() @IsIn(['enabled', 'disabled']) status?: 'enabled' | 'disabled';
}
