import { Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../../auth/admin-api.decorator';
import { DashboardDto, DashboardQueryDto } from './dashboard.dto';
import { DashboardService } from './dashboard.service';

@AdminApi('api/admin/dashboard')
export class AdminDashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @ApiOperation({
    summary:
      'The admin dashboard over 1 h, 24 h, 7 d or 30 d: tasks by status, money, refunds, success by channel and model, upstream latency and errors, stuck tasks, webhooks, stored bytes',
  })
  @ApiOkResponse({ type: DashboardDto })
  @ApiBadRequestResponse({ description: '`range` is not one of 1h, 24h, 7d, 30d' })
  get(@Query() query: DashboardQueryDto): Promise<DashboardDto> {
    return this.dashboard.build(query.range);
  }
}
