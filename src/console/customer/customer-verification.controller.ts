import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards, UsePipes } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { strictValidationPipe } from '../../common/validation';
import { ApplicationsService } from '../../verification/applications.service';
import { AssetsService } from '../../verification/assets.service';
import { CreateApplicationDto } from '../../verification/dto/application.dto';
import { CreateAssetDto } from '../../verification/dto/asset.dto';
import { CreateSessionDto } from '../../verification/dto/session.dto';
import { SessionsService } from '../../verification/sessions.service';
import { VerificationAccessGuard } from '../../verification/verification-access.guard';
import { toApplicationView, toAssetView, toGroupView, toSessionView } from '../../verification/verification.views';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';

/**
 * The verification page of the customer console: the same use cases as /v1/verification/*,
 * reached with the console session instead of an API key.
 */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@UsePipes(strictValidationPipe)
@Controller('console/api/verification')
export class CustomerVerificationController {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly sessions: SessionsService,
    private readonly assets: AssetsService,
  ) {}

  @Get('applications')
  @ApiOperation({ summary: 'Your applications and whether verification is enabled' })
  async own(@Req() req: ConsoleRequest) {
    const data = await this.applications.listOwn(req.user!.id);
    return { data: data.map((application) => toApplicationView(application)), verification_enabled: req.user!.verificationEnabled };
  }

  @Post('applications')
  @ApiOperation({ summary: 'Apply for real-person verification' })
  async apply(@Req() req: ConsoleRequest, @Body() body: CreateApplicationDto) {
    return toApplicationView(await this.applications.file(req.user!, { company: body.company, useCase: body.use_case, contact: body.contact }));
  }

  @Post('sessions')
  @UseGuards(VerificationAccessGuard)
  @ApiOperation({ summary: 'Start a liveness check; open h5_link in the browser' })
  async startSession(@Req() req: ConsoleRequest, @Body() body: CreateSessionDto) {
    const session = await this.sessions.create(req.user!, body.callback_url);
    return { session_id: session.sessionId, provider_token: session.providerToken, h5_link: session.h5Link };
  }

  @Get('sessions/:sessionId')
  @UseGuards(VerificationAccessGuard)
  async session(@Req() req: ConsoleRequest, @Param('sessionId') sessionId: string) {
    return toSessionView(await this.sessions.get(req.user!, sessionId));
  }

  @Get('groups')
  @UseGuards(VerificationAccessGuard)
  async groups(@Req() req: ConsoleRequest) {
    return { data: (await this.assets.groups(req.user!)).map(toGroupView) };
  }

  @Get('groups/:groupId/assets')
  @UseGuards(VerificationAccessGuard)
  async listAssets(@Req() req: ConsoleRequest, @Param('groupId') groupId: string) {
    return { data: (await this.assets.list(req.user!, groupId)).map(toAssetView) };
  }

  @Post('groups/:groupId/assets')
  @UseGuards(VerificationAccessGuard)
  @ApiOperation({ summary: 'Upload a portrait by URL to a verified group' })
  async upload(@Req() req: ConsoleRequest, @Param('groupId') groupId: string, @Body() body: CreateAssetDto) {
    return toAssetView(await this.assets.upload(req.user!, groupId, { url: body.url, name: body.name }));
  }

  @Delete('assets/:assetId')
  @HttpCode(204)
  @UseGuards(VerificationAccessGuard)
  async remove(@Req() req: ConsoleRequest, @Param('assetId') assetId: string): Promise<void> {
    await this.assets.remove(req.user!, assetId);
  }
}
