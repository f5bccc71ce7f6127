import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { TASK_SORT_KEYS, type TaskSort } from '../../tasks/task-list-query';
import { PageQueryDto } from '../../common/http/page-query.dto';

/** Search and order of the console's task lists (customer and admin), on top of the paging. */
export class TaskSearchQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'a task id (exact or its beginning) or words of the prompt (case-insensitive)',
    example: 'task_3kT9',
  })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  q?: string;

  @ApiPropertyOptional({
    enum: TASK_SORT_KEYS,
    default: '-created_at',
    description: "a field ascending, or descending with a leading '-'; cost is the quota charged",
  })
  @IsOptional()
  @IsIn(TASK_SORT_KEYS)
  sort?: TaskSort;
}

export { promptExcerpt } from '../../tasks/task-admin.view';
