import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { asCsvAttachment } from '../../common/http/csv-reply';
import { customerCsvColumns, usageCsv, usageFileName } from '../../tasks/usage-report';
import { UsageReports } from '../../tasks/usage-reports.service';
import { VideoModelListDto } from '../../videos/dto/model-list.dto';
import { UsageReportDto, UsageReportQueryDto } from '../../videos/dto/usage.dto';
import { ModelListings } from '../../videos/model-listings.service';
import { ChannelsService } from '../../upstream/channels.service';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { UsageQueryDto } from './customer-query.dto';
import { CustomerTasksService } from './customer-tasks.service';
import { CustomerOverviewDto, CustomerOverviewQueryDto } from './customer-overview.dto';
import { CustomerOverviewService } from './customer-overview.service';
import { CustomerUsageService } from './customer-usage.service';
import { CustomerAccountDto, ModelsDto, UsageDto } from './customer-views.dto';

/** The signed-in customer's account: balance, usage over time, the overview charts, models on offer and their prices. */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api')
export class CustomerAccountController {
  constructor(
    private readonly usage: CustomerUsageService,
    private readonly channels: ChannelsService,
    private readonly tasks: CustomerTasksService,
    private readonly overviews: CustomerOverviewService,
    private readonly reports: UsageReports,
    private readonly listings: ModelListings,
  ) {}

  @Get('me')
  @ApiOperation({ summary: 'Balance and account of the signed-in customer' })
  @ApiOkResponse({ type: CustomerAccountDto })
  me(@Req() req: ConsoleRequest): CustomerAccountDto {
    const user = req.user!;
    return {
      id: user.id,
      username: user.username,
      group: user.group,
      quota: user.quota,
      used_quota: user.usedQuota,
      verification_enabled: user.verificationEnabled,
    };
  }

  @Get('usage')
  @ApiOperation({ summary: 'Quota spent, refunded and topped up per day, and the closing balance (for the usage chart)' })
  @ApiOkResponse({ type: UsageDto })
  async daily(@Req() req: ConsoleRequest, @Query() query: UsageQueryDto): Promise<UsageDto> {
    const user = req.user!;
    return {
      data: await this.usage.daily(user.id, query.days, query.tz_offset, user.quota),
      quota: user.quota,
      used_quota: user.usedQuota,
    };
  }

  @Get('usage/report')
  @ApiOperation({
    summary: 'GET /v1/usage for the signed-in customer: their ended tasks per UTC day, model or API key (the Usage page); `format=csv`',
  })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: UsageReportDto })
  @ApiBadRequestResponse({
    description: '`from`, `to`, `group_by` or `format` unreadable, `to` not after `from`, or a range over 366 days',
  })
  async report(
    @Req() req: ConsoleRequest,
    @Query() query: UsageReportQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UsageReportDto | string> {
    const groupBy = query.group_by ?? 'day';
    const report = await this.reports.forCustomer(req.user!.id, { from: query.from, to: query.to, groupBy });
    if (query.format !== 'csv') return report;
    asCsvAttachment(res, usageFileName(report));
    return usageCsv(report.data, customerCsvColumns(groupBy));
  }

  @Get('overview')
  @ApiOperation({
    summary: 'Spend and refunds per UTC day, the closing balance per day (from the ledger) and spend per model, over 7 or 30 days',
  })
  @ApiOkResponse({ type: CustomerOverviewDto })
  @ApiBadRequestResponse({ description: '`range` is not 7d or 30d' })
  overview(@Req() req: ConsoleRequest, @Query() query: CustomerOverviewQueryDto): Promise<CustomerOverviewDto> {
    return this.overviews.build(req.user!.id, req.user!.quota, query.range, req.user!.createdAt);
  }

  /** The Models and prices page. */
  @Get('models/prices')
  @ApiOperation({
    summary:
      "The models on offer to the customer's group, with their capabilities and the group's prices (what GET /v1/videos/models answers a key without an allowlist)",
  })
  @ApiOkResponse({ type: VideoModelListDto })
  modelPrices(@Req() req: ConsoleRequest) {
    return this.listings.videoModels({ user: req.user!, apiKey: null });
  }

  @Get('models')
  @ApiOperation({ summary: "Models the customer's group can use, and models the customer has used" })
  @ApiOkResponse({ type: ModelsDto })
  async models(@Req() req: ConsoleRequest): Promise<ModelsDto> {
    const group = req.user!.group;
    const offered = new Set<string>();
    for (const channel of await this.channels.list()) {
      if (channel.status !== 'enabled' || (channel.groups && !channel.groups.includes(group))) continue;
      for (const model of channel.models) offered.add(model);
    }
    return { data: [...offered].sort(), used: await this.tasks.usedModels(req.user!.id) };
  }
}
