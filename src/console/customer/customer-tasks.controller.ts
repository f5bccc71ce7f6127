import { Controller, Get, Param, Query, Req, UseGuards, UsePipes } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { strictValidationPipe } from '../../common/validation';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { CustomerTaskQueryDto } from './customer-query.dto';
import { CustomerTasksService, toCustomerTaskView } from './customer-tasks.service';
import { CustomerTaskDto, CustomerTaskListDto } from './customer-views.dto';

@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@UsePipes(strictValidationPipe)
@Controller('console/api/tasks')
export class CustomerTasksController {
  constructor(private readonly tasks: CustomerTasksService) {}

  @Get()
  @ApiOperation({ summary: 'Your tasks, newest first, filtered by flat status and model' })
  @ApiOkResponse({ type: CustomerTaskListDto })
  list(@Req() req: ConsoleRequest, @Query() query: CustomerTaskQueryDto): Promise<CustomerTaskListDto> {
    return this.tasks.list(req.user!.id, { status: query.status, model: query.model, page: query.page, pageSize: query.page_size });
  }

  @Get(':taskId')
  @ApiOkResponse({ type: CustomerTaskDto })
  async get(@Req() req: ConsoleRequest, @Param('taskId') taskId: string): Promise<CustomerTaskDto> {
    return toCustomerTaskView(await this.tasks.get(req.user!.id, taskId));
  }
}
