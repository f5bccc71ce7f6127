import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { toLogView } from '../billing/log.view';
import { LogsService } from '../billing/logs.service';
import { LogTotalsService } from '../billing/log-totals.service';
import { LogQueryDto } from './dto/admin-query.dto';
import { LogListDto } from './dto/admin-responses.dto';

@AdminApi('api/admin/logs')
export class AdminLogsController {
  constructor(
    private readonly logs: LogsService,
    private readonly logTotals: LogTotalsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The ledger: top-ups, charges, refunds (with task and reason), adjustments; totals per type over the filter' })
  @ApiOkResponse({ type: LogListDto })
  async list(@Query() query: LogQueryDto): Promise<LogListDto> {
    const filter = {
      userId: query.user_id,
      type: query.type,
      taskId: query.task_id,
      from: query.from !== undefined ? query.from * 1000 : undefined,
      to: query.to !== undefined ? query.to * 1000 + 999 : undefined,
    };
    const [{ data, total }, totals] = await Promise.all([
      this.logs.find({ ...filter, page: query.page, pageSize: query.page_size }),
      this.logTotals.totals(filter),
    ]);
    return { data: data.map(toLogView), total, totals };
  }
}
