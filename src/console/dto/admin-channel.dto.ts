import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsString, Length, Max, Min, ValidateBy } from 'class-validator';
import { ColumnLength, IsOptionalNotNull } from '../../common/http/validation';
import { channelSettingsOf, FAMILIES, FAMILY_PLATFORMS } from '../../families/family-registry';
import type { ChannelSettings } from '../../upstream/channel.entity';
import type { Platform } from '../../upstream/channel.entity';

/** `{public model id: upstream model name}`, every name a non-empty string. */
const IsModelMapping = () =>
  ValidateBy({
    name: 'isModelMapping',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((name) => typeof name === 'string' && name.trim() !== ''),
      defaultMessage: () => 'model_mapping must map public model ids to upstream model names (non-empty strings)',
    },
  });

/** The settings each platform takes, for the API documentation (GET /api/admin/platforms lists them with types and defaults). */
const SETTINGS_DOC = `Checked against the platform's own settings (GET /api/admin/platforms): ${FAMILIES.map(
  (family) =>
    `${family.platform}: ${channelSettingsOf(family)
      .map((setting) => setting.name)
      .join(', ')}`,
).join('; ')}. An unknown setting or a wrong type is a 400 naming settings.<name>; secret ones read *** afterwards.`;

/** Every setting some registered family takes, as one Swagger schema (built from the registry: a family adds its own with no change here). */
export class ChannelSettingsDto {
  [name: string]: unknown;
}
const documented = new Map(
  FAMILIES.flatMap((family) => channelSettingsOf(family).map((setting) => [setting.name, { setting, family }] as const)),
);
for (const { setting, family } of documented.values()) {
  const only = family.settings.includes(setting) ? `${family.platform} channels: ` : '';
  ApiPropertyOptional({
    type: setting.type === 'integer' || setting.type === 'number' ? setting.type : 'string',
    ...(setting.type === 'url' ? { format: 'uri' } : {}),
    ...(setting.default !== null ? { default: setting.default } : {}),
    ...(setting.type === 'integer' || setting.type === 'number'
      ? { minimum: setting.min, maximum: setting.max }
      : { maxLength: setting.max }),
    nullable: true,
    description: `${only}${setting.label.en}. ${setting.description.en}${setting.secret ? ' Secret: stored encrypted, shown as ***.' : ''}`,
  })(ChannelSettingsDto.prototype, setting.name);
}

export class CreateChannelDto {
  @ApiProperty({ example: 'alpha-main' })
  @IsString()
  @ColumnLength(1, 128)
  name: string;

  // Checked against the registered families by the controller (the registry, not this list, decides).
  @ApiProperty({ enum: FAMILY_PLATFORMS })
  @IsString()
  platform: Platform;

  @ApiProperty({ example: 'https://provider.example.com' })
  @IsString()
  @ColumnLength(1, 512)
  base_url: string;

  @ApiProperty({
    description:
      "provider key; stored, never shown again. Of its platform's shape (GET /api/admin/platforms `api_key_format`: Kling's is `<access_key>:<secret_key>`)",
  })
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

  @ApiPropertyOptional({ type: ChannelSettingsDto, description: SETTINGS_DOC })
  @IsOptionalNotNull()
  @IsObject()
  settings?: ChannelSettings;

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
  @ApiPropertyOptional({
    type: ChannelSettingsDto,
    description: `merged into the current settings; null removes a setting. ${SETTINGS_DOC}`,
  })
  @IsOptionalNotNull()
  @IsObject()
  settings?: ChannelSettings;
  @ApiPropertyOptional({ description: 'user groups allowed (exact names); empty means all' })
  @IsOptionalNotNull()
  @IsArray()
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  groups?: string[];
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(-1000) @Max(1000) priority?: number;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(0) @Max(10000) weight?: number;
  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] }) @IsOptionalNotNull() @IsIn(['enabled', 'disabled']) status?:
    'enabled' | 'disabled';
}

/** `GET /api/admin/channels/:id/schema?upstream_model=`: the endpoint (fal) or `owner/name[:version]` (Replicate). */
export class EndpointSchemaQueryDto {
  @ApiProperty({ example: 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video' })
  @IsString()
  @Length(1, 256)
  upstream_model: string;
}
