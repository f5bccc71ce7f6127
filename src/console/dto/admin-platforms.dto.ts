import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FAMILY_PLATFORMS } from '../../families/family-registry';

/** A text in both console languages. */
export class LocalizedTextDto {
  @ApiProperty({ example: 'gamma (family C)' }) en: string;
  @ApiProperty({ name: 'zh-CN', example: 'gamma（C 系）' }) 'zh-CN': string;
}

export class PlatformSettingDto {
  @ApiProperty({ example: 'control_base_url', description: "the key under the channel's settings" }) name: string;
  @ApiProperty({
    enum: ['string', 'integer', 'number', 'url'],
    description: 'url: an http(s) URL on a public host (unless MEDIA_ALLOW_PRIVATE_HOSTS); number: any finite number (a price)',
  })
  type: string;
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'number' }],
    nullable: true,
    example: null,
    description: 'what applies when the channel leaves it out (null: nothing, or the family default)',
  })
  default: string | number | null;
  @ApiProperty({ description: 'a channel of this platform is refused without it' }) required: boolean;
  @ApiProperty({ description: 'stored encrypted and shown as *** (write-only)' }) secret: boolean;
  @ApiProperty({ type: LocalizedTextDto, description: "the console form field's label" }) label: LocalizedTextDto;
  @ApiProperty({ type: LocalizedTextDto }) description: LocalizedTextDto;
  @ApiPropertyOptional({ description: 'integer and number: the smallest value; string and url: the shortest length' }) min?: number;
  @ApiPropertyOptional({ description: 'integer and number: the largest value; string and url: the longest length' }) max?: number;
}

export class RouteOptionDto {
  @ApiProperty({ example: 'input_map', description: "the key under a route's `options`" }) name: string;
  @ApiProperty({
    enum: ['boolean', 'choice', 'list', 'text', 'input_map'],
    description:
      'how the console draws it: a switch, one of `choices`, several of `choices` (whole numbers without), a line of text, a field map',
  })
  kind: string;
  @ApiPropertyOptional({ type: [String] }) choices?: string[];
  @ApiProperty({ type: LocalizedTextDto }) label: LocalizedTextDto;
  @ApiProperty({ type: LocalizedTextDto }) description: LocalizedTextDto;
}

export class PlatformDto {
  @ApiProperty({ enum: FAMILY_PLATFORMS, description: "a channel's platform" }) platform: string;
  @ApiProperty({ type: LocalizedTextDto, description: 'its name in each console language (the console picks its own)' })
  label: LocalizedTextDto;
  @ApiProperty({
    type: [String],
    example: ['gamma-2-0', 'gamma-2-0-fast'],
    description: "its public models (for a platform whose models the operator lists, the simulator's)",
  })
  models: string[];
  @ApiProperty({ description: 'its public models are whatever its channels list (model_mapping names the upstream ones)' })
  models_from_channels: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://api.vidu.com',
    description: "the provider's public API host, what a channel's base_url usually is (the console's form fills it in); null: none",
  })
  default_base_url: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '<access_key>:<secret_key>',
    description: "what its provider's API keys look like (a channel's api_key is checked against it); null: any",
  })
  api_key_format: string | null;
  @ApiProperty({ type: [RouteOptionDto], description: 'the options a catalog route on it takes (`routes[].options`); empty: none' })
  route_options: RouteOptionDto[];
  @ApiProperty({ type: [PlatformSettingDto], description: "the channel settings it takes: every channel's first, then its own" })
  settings: PlatformSettingDto[];
}

export class PlatformListDto {
  @ApiProperty({ type: [PlatformDto] }) data: PlatformDto[];
}
