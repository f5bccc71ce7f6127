import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { LOG_TYPES, type LogType } from '../../billing/log.entity';
import { PageQueryDto } from '../../common/http/page-query.dto';
import { TaskSearchQueryDto } from './task-list-query.dto';

export { PageQueryDto };

export class LogQueryDto extends PageQueryDto {
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) user_id?: number;
  @ApiPropertyOptional({ enum: LOG_TYPES })
  @IsOptional()
  @IsIn(LOG_TYPES)
  type?: LogType;
  @ApiPropertyOptional() @IsOptional() @IsString() task_id?: string;
  @ApiPropertyOptional({ description: 'Unix seconds, inclusive' }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) from?: number;
  @ApiPropertyOptional({ description: 'Unix seconds, inclusive' }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) to?: number;
}

export const TASK_STATUS_FILTERS = [
  'queued',
  'in_progress',
  'completed',
  'failed',
  'NOT_START',
  'QUEUED',
  'IN_PROGRESS',
  'SUCCESS',
  'FAILURE',
  'SUBMITTING',
  'REJECTED',
];

export class TaskQueryDto extends TaskSearchQueryDto {
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) user_id?: number;
  @ApiPropertyOptional({ enum: TASK_STATUS_FILTERS, description: 'flat or unified status' })
  @IsOptional()
  @IsIn(TASK_STATUS_FILTERS)
  status?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 64) model?: string;
}
