import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { CustomerLogQueryDto } from './customer-query.dto';
import { CustomerLogsService } from './customer-logs.service';
import { CustomerLogListDto } from './customer-views.dto';

@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/logs')
export class CustomerLogsController {
  constructor(private readonly logs: CustomerLogsService) {}

  @Get()
  @ApiOperation({ summary: 'Your ledger (consume, refund with task and reason, top-up), filtered by type and date, with totals' })
  @ApiOkResponse({ type: CustomerLogListDto })
  find(@Req() req: ConsoleRequest, @Query() query: CustomerLogQueryDto): Promise<CustomerLogListDto> {
    return this.logs.find(req.user!.id, {
      type: query.type,
      taskId: query.task_id,
      from: query.from !== undefined ? query.from * 1000 : undefined,
      to: query.to !== undefined ? query.to * 1000 + 999 : undefined,
      page: query.page,
      pageSize: query.page_size,
    });
  }
}
