import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { idParamPipe } from '../common/http/id-param.pipe';
import { ApplicationsService } from './applications.service';
import { ApplicationDto, ApplicationListDto, ApplicationQueryDto, ReviewApplicationDto } from './dto/application.dto';
import { toApplicationView } from './verification.views';

@AdminApi('api/admin/verification/applications')
export class AdminApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Get()
  @ApiOperation({ summary: 'Verification applications, newest first (filter by status)' })
  @ApiOkResponse({ type: ApplicationListDto })
  async list(@Query() query: ApplicationQueryDto): Promise<ApplicationListDto> {
    const { data, total } = await this.applications.list({ status: query.status, page: query.page, pageSize: query.page_size });
    return { data: data.map(({ application, username }) => toApplicationView(application, username)), total };
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: "Approve a pending application: enables the account's verification_enabled" })
  @ApiOkResponse({ type: ApplicationDto })
  async approve(@Param('id', idParamPipe) id: number, @Body() body: ReviewApplicationDto): Promise<ApplicationDto> {
    return toApplicationView(await this.applications.approve(id, body.note));
  }

  @Post(':id/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a pending application (the note is shown to the customer)' })
  @ApiOkResponse({ type: ApplicationDto })
  async reject(@Param('id', idParamPipe) id: number, @Body() body: ReviewApplicationDto): Promise<ApplicationDto> {
    return toApplicationView(await this.applications.reject(id, body.note));
  }
}
