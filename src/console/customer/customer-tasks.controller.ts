import { Controller, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { CustomerTaskQueryDto } from './customer-query.dto';
import { CustomerTasksService } from './customer-tasks.service';
import { CustomerTaskListDto } from './customer-views.dto';
import { CustomerTaskDetailDto } from '../task-detail/task-detail.dto';
import { TaskDetailService } from '../task-detail/task-detail.service';

@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/tasks')
export class CustomerTasksController {
  constructor(
    private readonly tasks: CustomerTasksService,
    private readonly details: TaskDetailService,
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
}
