import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class CreateChannelDto {
  @ApiProperty({ example: 'alpha-main' })
  @IsString()
  @Length(1, 128)
  name: string;

  @ApiProperty({ enum: ['alpha', 'beta', 'gamma'] })
  @IsIn(['alpha', 'beta', 'gamma'])
  platform: 'alpha' | 'beta' | 'gamma';

  @ApiProperty({ example: 'https://provider.example.com' })
  @IsString()
  @Length(1, 512)
  base_url: string;

  @ApiProperty({ description: 'provider key; stored, never shown again' })
  @IsString()
  @Length(1, 512)
  api_key: string;

  @ApiProperty({ example: ['alpha/v6', 'alpha/c1'] })
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  models: string[];

  @ApiPropertyOptional({ example: { 'alpha/v6': 'v6' } })
  @IsOptional()
  @IsObject()
  model_mapping?: Record<string, string>;

  @ApiPropertyOptional({ example: { poll_interval_ms: 4000, max_concurrency: 20 } })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  @ApiPropertyOptional({ example: ['default'], description: 'user groups allowed; absent means all' })
  @IsOptional()
  @IsString({ each: true })
  groups?: string[];

  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @IsInt()
  @Min(-1000)
  @Max(1000)
  priority?: number;

  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10000)
  weight?: number;

  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] })
  @IsOptional()
  @IsIn(['enabled', 'disabled'])
  status?: 'enabled' | 'disabled';
}

export class UpdateChannelDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 128) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 512) base_url?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 512) api_key?: string;
  @ApiPropertyOptional() @IsOptional() @IsArray() @ArrayMinSize(1) @IsString({ each: true }) models?: string[];
  @ApiPropertyOptional() @IsOptional() @IsObject() model_mapping?: Record<string, string>;
  @ApiPropertyOptional() @IsOptional() @IsObject() settings?: Record<string, unknown>;
  @ApiPropertyOptional() @IsOptional() @IsString({ each: true }) groups?: string[];
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(-1000) @Max(1000) priority?: number;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(0) @Max(10000) weight?: number;
  @ApiPropertyOptional({ enum: ['enabled', 'disabled'] }) @IsOptional() @IsIn(['enabled', 'disabled']) status?: 'enabled' | 'disabled';
}
