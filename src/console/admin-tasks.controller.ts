import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { Clock } from '../common/runtime/clock';
import { toAdminTaskView } from '../tasks/task-admin.view';
import { NO_ARCHIVE } from '../storage/video-archive.entity';
import { VideoArchiveRepository } from '../storage/video-archive.repository';
import { TaskCancelService } from '../tasks/task-cancel.service';
import { TaskQueries } from '../tasks/task-queries.service';
import { TaskStatus } from '../tasks/task-status';
import { TaskQueryDto } from './dto/admin-query.dto';
import { AdminTaskListDto } from './dto/admin-responses.dto';
import { AdminTaskDetailDto } from './task-detail/task-detail.dto';
import { TaskDetailService } from './task-detail/task-detail.service';

const FLAT_TO_UNIFIED: Record<string, TaskStatus[]> = {
  queued: ['NOT_START', 'QUEUED', 'SUBMITTING'],
  in_progress: ['IN_PROGRESS'],
  completed: ['SUCCESS'],
  failed: ['FAILURE'],
};

/** A task is stuck when its poll has been due for this long. */
export const STUCK_AFTER_MS = 60_000;

@AdminApi('api/admin/tasks')
export class AdminTasksController {
  constructor(
    private readonly tasks: TaskQueries,
    private readonly clock: Clock,
    private readonly details: TaskDetailService,
    private readonly archives: VideoArchiveRepository,
    private readonly cancels: TaskCancelService,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'All tasks; filter by user, status (flat or unified) and model, search by task id or prompt; newest first unless `sort` says otherwise',
  })
  @ApiOkResponse({ type: AdminTaskListDto })
  async list(@Query() query: TaskQueryDto): Promise<AdminTaskListDto> {
    const status = query.status ? (FLAT_TO_UNIFIED[query.status] ?? [query.status as TaskStatus]) : undefined;
    const { data, total } = await this.tasks.list({
      userId: query.user_id,
      status,
      model: query.model,
      q: query.q,
      sort: query.sort,
      page: query.page,
      pageSize: query.page_size,
    });
    const now = this.clock.now();
    const archives = await this.archives.summariesOf(data.map((task) => task.id));
    return {
      data: data.map((task) => toAdminTaskView(task, archives.get(task.id) ?? NO_ARCHIVE, isStuck(task.status, task.nextPollAt, now))),
      total,
    };
  }

  @Get('stuck')
  @ApiOperation({ summary: 'Tasks whose poll has been due for over a minute, or whose submit never finished' })
  @ApiOkResponse({ type: AdminTaskListDto })
  async stuck(): Promise<AdminTaskListDto> {
    const tasks = await this.tasks.findStuck(this.clock.now(), STUCK_AFTER_MS);
    const archives = await this.archives.summariesOf(tasks.map((task) => task.id));
    return { data: tasks.map((task) => toAdminTaskView(task, archives.get(task.id) ?? NO_ARCHIVE, true)), total: tasks.length };
  }

  @Get(':task_id')
  @ApiOperation({ summary: 'Any task with both API forms, its channel and upstream id, its charge and refund, and its timeline' })
  @ApiOkResponse({ type: AdminTaskDetailDto })
  @ApiNotFoundResponse({ description: 'no task with this id' })
  detail(@Param('task_id') taskId: string): Promise<AdminTaskDetailDto> {
    return this.details.forAdmin(taskId);
  }

  @Post(':task_id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: "Cancel any task on its owner's behalf, as its owner's POST /v1/videos/{id}/cancel would; the detail after it" })
  @ApiOkResponse({ type: AdminTaskDetailDto })
  @ApiNotFoundResponse({ description: 'no task with this id' })
  @ApiConflictResponse({ description: '`conflict`: the task has already ended; `cancel_not_supported`: its provider cannot cancel it now' })
  async cancel(@Param('task_id') taskId: string): Promise<AdminTaskDetailDto> {
    const task = await this.tasks.findAny(taskId);
    await this.cancels.cancel(task.userId, taskId, (status) => status);
    return this.details.forAdmin(taskId);
  }
}

function isStuck(status: TaskStatus, nextPollAt: number | null, now: number): boolean {
  return ['NOT_START', 'QUEUED', 'IN_PROGRESS', 'SUBMITTING'].includes(status) && nextPollAt !== null && nextPollAt < now - STUCK_AFTER_MS;
}
