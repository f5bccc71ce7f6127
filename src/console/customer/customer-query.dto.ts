import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { PageQueryDto } from '../dto/admin-query.dto';
import { TaskSearchQueryDto } from '../dto/task-list-query.dto';

export const FLAT_STATUSES = ['queued', 'in_progress', 'completed', 'failed'] as const;
export type FlatStatusFilter = (typeof FLAT_STATUSES)[number];

export class CustomerTaskQueryDto extends TaskSearchQueryDto {
  @ApiPropertyOptional({ enum: FLAT_STATUSES }) @IsOptional() @IsIn(FLAT_STATUSES) status?: FlatStatusFilter;
  @ApiPropertyOptional({ example: 'alpha/v6' }) @IsOptional() @IsString() @Length(1, 64) model?: string;
}

export class CustomerLogQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['topup', 'consume', 'refund', 'adjust', 'refused'] })
  @IsOptional()
  @IsIn(['topup', 'consume', 'refund', 'adjust', 'refused'])
  type?: 'topup' | 'consume' | 'refund' | 'adjust' | 'refused';
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 64) task_id?: string;
  @ApiPropertyOptional({ description: 'Unix seconds, inclusive' }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) from?: number;
  @ApiPropertyOptional({ description: 'Unix seconds, inclusive' }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) to?: number;
}

export class UsageQueryDto {
  @ApiPropertyOptional({ default: 30, maximum: 366 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(366) days: number = 30;
  @ApiPropertyOptional({ default: 0, description: "minutes east of UTC of the viewer's day boundaries (e.g. 120 for UTC+2)" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(-14 * 60)
  @Max(14 * 60)
  tz_offset: number = 0;
}
