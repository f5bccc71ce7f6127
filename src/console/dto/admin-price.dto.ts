import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class UpsertPriceDto {
  @ApiProperty({ example: 'alpha/v6' }) @IsString() @Length(1, 64) model: string;
  @ApiProperty({ example: '720p', description: 'lower-case quality, or * for any' }) @IsString() @Length(1, 16) resolution: string;
  @ApiProperty({ enum: ['second', 'clip'] }) @IsIn(['second', 'clip']) unit: 'second' | 'clip';
  @ApiPropertyOptional({ default: 0, description: 'per-clip duration this price is for; 0 for any' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600)
  duration?: number;
  @ApiProperty({ example: 900, description: 'quota units' }) @IsInt() @Min(0) price: number;
  @ApiPropertyOptional({ example: 1200, description: 'with-audio tier; absent means twice the price' })
  @IsOptional()
  @IsInt()
  @Min(0)
  audio_price?: number;
}

export class GroupRatioDto {
  @ApiProperty({ example: 0.8 }) @IsNumber() @Min(0) @Max(100) ratio: number;
}
