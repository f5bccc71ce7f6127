import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { ErrorCode } from '../common/errors/app-error';
import { ApiKeyUnauthorized, errorExample } from '../common/errors/error-examples';
import { asCsvAttachment } from '../common/http/csv-reply';
import { customerCsvColumns, usageCsv, usageFileName } from '../tasks/usage-report';
import { UsageReports } from '../tasks/usage-reports.service';
import { OpenAiErrorDto } from './dto/openai-error.dto';
import { UsageReportDto, UsageReportQueryDto } from './dto/usage.dto';

const UNAUTHORIZED = { 401: errorExample('openai', ErrorCode.Unauthorized, 'missing api key: send Authorization: Bearer <API_KEY>') };
const BAD_RANGE = errorExample(
  'openai',
  ErrorCode.InvalidRequest,
  'to must be after from (to is exclusive; a date as to includes that day)',
  'to',
);

/** `GET /v1/usage`: what the caller's account used and paid, over its own ended tasks, for invoicing. */
@ApiTags('usage')
@ApiBearerAuth('api-key')
@ApiKeyUnauthorized(OpenAiErrorDto, 'openai', UNAUTHORIZED)
@UseGuards(ApiKeyGuard)
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly reports: UsageReports) {}

  @Get()
  @ApiOperation({
    summary:
      "The account's tasks that ended in a range (all its keys), per UTC day, model or API key: tasks, seconds delivered, what was paid",
    description:
      'Tasks count by when they ended (completed or failed), with what was paid in the end: a failed task counts 0, one ' +
      'settled below what was asked what it was settled at. `format=csv` answers the same rows as a CSV attachment.',
  })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: UsageReportDto })
  @ApiBadRequestResponse({
    type: OpenAiErrorDto,
    description: '`from`, `to`, `group_by` or `format` unreadable, `to` not after `from`, or a range over 366 days: the field is named',
    example: BAD_RANGE,
  })
  async report(
    @Req() req: AuthenticatedRequest,
    @Query() query: UsageReportQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UsageReportDto | string> {
    const groupBy = query.group_by ?? 'day';
    const report = await this.reports.forCustomer(req.user!.id, { from: query.from, to: query.to, groupBy });
    if (query.format !== 'csv') return report;
    asCsvAttachment(res, usageFileName(report));
    return usageCsv(report.data, customerCsvColumns(groupBy));
  }
}
