import { Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminApi } from '../auth/admin-api.decorator';
import { asCsvAttachment } from '../common/http/csv-reply';
import { operatorCsvColumns, usageCsv, usageFileName } from '../tasks/usage-report';
import { UsageReports } from '../tasks/usage-reports.service';
import { OperatorUsageReportDto, OperatorUsageReportQueryDto } from './dto/admin-usage.dto';

@AdminApi('api/admin/usage')
export class AdminUsageController {
  constructor(private readonly reports: UsageReports) {}

  @Get()
  @ApiOperation({
    summary:
      'Tasks that ended in a range, per UTC day, model, channel, platform, user or API key: seconds delivered, what was charged, ' +
      'refunded, what the providers cost and the margin; `format=csv` as a CSV attachment',
  })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: OperatorUsageReportDto })
  @ApiBadRequestResponse({
    description: '`from`, `to`, `group_by` or `format` unreadable, `to` not after `from`, or a range over 366 days',
  })
  async report(
    @Query() query: OperatorUsageReportQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OperatorUsageReportDto | string> {
    const groupBy = query.group_by ?? 'day';
    const report = await this.reports.forOperator({ from: query.from, to: query.to, groupBy });
    if (query.format !== 'csv') return report;
    asCsvAttachment(res, usageFileName(report));
    return usageCsv(report.data, operatorCsvColumns(groupBy));
  }
}
