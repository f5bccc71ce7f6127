import { Body, Controller, Get, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { ApplicationsService } from './applications.service';
import { ApplicationDto, CreateApplicationDto, OwnApplicationsDto } from './dto/application.dto';
import { toApplicationView } from './verification.views';

@ApiTags('verification')
@ApiBearerAuth('api-key')
@UseGuards(ApiKeyGuard)
@Controller('v1/verification/applications')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Post()
  @ApiOperation({ summary: 'Apply for real-person verification (reviewed by the service operator)' })
  @ApiCreatedResponse({ type: ApplicationDto })
  @ApiConflictResponse({ description: 'An application is already pending, or verification is already enabled' })
  async file(@Body() body: CreateApplicationDto, @Req() req: AuthenticatedRequest): Promise<ApplicationDto> {
    const application = await this.applications.file(req.user!, { company: body.company, useCase: body.use_case, contact: body.contact });
    return toApplicationView(application);
  }

  @Get()
  @ApiOperation({ summary: "The account's applications and whether verification is enabled" })
  @ApiOkResponse({ type: OwnApplicationsDto })
  async own(@Req() req: AuthenticatedRequest): Promise<OwnApplicationsDto> {
    const data = await this.applications.listOwn(req.user!.id);
    return { data: data.map((application) => toApplicationView(application)), verification_enabled: req.user!.verificationEnabled };
  }
}
