import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { CustomerTaskQueryDto } from './customer-query.dto';
import { CustomerTasksService } from './customer-tasks.service';
import { CustomerTaskListDto } from './customer-views.dto';
import { CustomerTaskDetailDto } from '../task-detail/task-detail.dto';
import { TaskDetailService } from '../task-detail/task-detail.service';
import { TaskCancelService } from '../../tasks/task-cancel.service';
import { toFlatStatus } from '../../tasks/task-status';

@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/tasks')
export class CustomerTasksController {
  constructor(
    private readonly tasks: CustomerTasksService,
    private readonly details: TaskDetailService,
    private readonly cancels: TaskCancelService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Your tasks, filtered by flat status and model, searched by task id or prompt, newest first unless `sort` says otherwise',
  })
  @ApiOkResponse({ type: CustomerTaskListDto })
  list(@Req() req: ConsoleRequest, @Query() query: CustomerTaskQueryDto): Promise<CustomerTaskListDto> {
    return this.tasks.list(req.user!.id, {
      status: query.status,
      model: query.model,
      q: query.q,
      sort: query.sort,
      page: query.page,
      pageSize: query.page_size,
    });
  }

  @Get(':taskId')
  @ApiOperation({ summary: "One of your tasks with both API forms, its charge and refund, and its timeline; 404 for any other account's" })
  @ApiOkResponse({ type: CustomerTaskDetailDto })
  get(@Req() req: ConsoleRequest, @Param('taskId') taskId: string): Promise<CustomerTaskDetailDto> {
    return this.details.forCustomer(req.user!.id, taskId);
  }

  @Post(':taskId/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel one of your tasks, as POST /v1/videos/{id}/cancel does (failed, refunded in full); the drawer after it',
  })
  @ApiOkResponse({ type: CustomerTaskDetailDto })
  @ApiNotFoundResponse({ description: "Unknown task, or another account's" })
  @ApiConflictResponse({ description: '`conflict`: the task has already ended; `cancel_not_supported`: its provider cannot cancel it now' })
  async cancel(@Req() req: ConsoleRequest, @Param('taskId') taskId: string): Promise<CustomerTaskDetailDto> {
    await this.cancels.cancel(req.user!.id, taskId, toFlatStatus);
    return this.details.forCustomer(req.user!.id, taskId);
  }
}
