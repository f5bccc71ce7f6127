import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsString, Max, Min } from 'class-validator';
import { ColumnLength, IsOptionalNotNull } from '../../common/http/validation';
import { MAX_PRICE } from '../../billing/pricing.service';
import { CurrencyDto } from '../currency.view';

export class UpsertPriceDto {
  @ApiProperty({ example: 'alpha/v6' }) @IsString() @ColumnLength(1, 64) model: string;
  @ApiProperty({ example: '720p', description: 'lower-case quality, or * for any' }) @IsString() @ColumnLength(1, 16) resolution: string;
  @ApiProperty({ enum: ['second', 'clip'] }) @IsIn(['second', 'clip']) unit: 'second' | 'clip';
  @ApiPropertyOptional({ default: 0, description: 'per-clip duration this price is for; 0 for any' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(600)
  duration?: number;
  @ApiProperty({ example: 900, maximum: MAX_PRICE, description: 'quota units' }) @IsInt() @Min(0) @Max(MAX_PRICE) price: number;
  @ApiPropertyOptional({ example: 1200, maximum: MAX_PRICE, description: 'with-audio tier; absent means twice the price' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_PRICE)
  audio_price?: number;
}

export class GroupRatioDto {
  @ApiProperty({ example: 0.8 }) @IsNumber() @Min(0) @Max(100) ratio: number;
}

/** The `:group` of `/api/admin/group-ratios/:group`: a user group name, as long as the column holding it. */
export class GroupRatioParamsDto {
  @ApiProperty({ example: 'vip' }) @IsString() @ColumnLength(1, 64) group: string;
}

export class AdminPriceDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'alpha/v6' }) model: string;
  @ApiProperty({ example: '720p' }) resolution: string;
  @ApiProperty({ enum: ['second', 'clip'] }) unit: string;
  @ApiProperty({ description: 'per-clip duration this price is for; 0 for any' }) duration: number;
  @ApiProperty({ example: 900, description: 'quota units' }) price: number;
  @ApiProperty({ type: Number, nullable: true, description: 'with-audio tier; null means twice the price' }) audio_price: number | null;
  @ApiProperty({ example: 0.09, description: 'the price in CURRENCY at QUOTA_PER_UNIT' }) money: number;
}

export class AdminPriceListDto {
  @ApiProperty({ type: [AdminPriceDto] }) data: AdminPriceDto[];
  @ApiProperty({ type: CurrencyDto }) currency: CurrencyDto;
}
