import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UploadedFiles, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileFieldsInterceptor } from '@nestjs/platform-express';
import { ApiBadRequestResponse, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error';
import { multipartOptions } from '../../common/http/multipart-limits';
import type { UploadedPart } from '../../families/family';
import { MAX_PORTRAIT_BYTES, PortraitUploadsService } from '../../verification/portrait-uploads.service';
import { ApplicationsService } from '../../verification/applications.service';
import { AssetsService } from '../../verification/assets.service';
import { CreateApplicationDto } from '../../verification/dto/application.dto';
import { AssetDto, ConsoleCreateAssetDto } from '../../verification/dto/asset.dto';
import { CreateSessionDto } from '../../verification/dto/session.dto';
import { SessionsService } from '../../verification/sessions.service';
import { VerificationAccessGuard } from '../../verification/verification-access.guard';
import { toApplicationView, toAssetView, toGroupView, toSessionView } from '../../verification/verification.views';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';

/** One portrait file and two small fields (url, name). */
const PORTRAIT_MULTIPART = multipartOptions({
  maxRequestBytes: MAX_PORTRAIT_BYTES + 64 * 1024,
  maxFileBytes: MAX_PORTRAIT_BYTES,
  maxFieldBytes: 4096,
  maxFields: 4,
  maxFiles: 1,
});

/**
 * The verification page of the customer console: the same use cases as /v1/verification/*,
 * reached with the console session instead of an API key.
 */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/verification')
export class CustomerVerificationController {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly sessions: SessionsService,
    private readonly assets: AssetsService,
    private readonly portraits: PortraitUploadsService,
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
    return toApplicationView(
      await this.applications.file(req.user!, { company: body.company, useCase: body.use_case, contact: body.contact }),
    );
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
  @UseInterceptors(FileFieldsInterceptor([{ name: 'file', maxCount: 1 }], PORTRAIT_MULTIPART))
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiOperation({
    summary: 'Upload a portrait to a verified group: by URL (JSON or a form field), or as a `file` part (JPEG, PNG or WebP, at most 10 MB)',
  })
  @ApiCreatedResponse({ type: AssetDto })
  @ApiBadRequestResponse({ description: 'neither or both of url and file, or a file that is no JPEG, PNG or WebP image' })
  async upload(
    @Req() req: ConsoleRequest,
    @Param('groupId') groupId: string,
    @Body() body: ConsoleCreateAssetDto,
    @UploadedFiles() files: { file?: UploadedPart[] } | undefined,
  ) {
    const file = files?.file?.[0];
    if (file && body.url !== undefined) throw AppError.invalid('send either url or file, not both', 'file');
    if (!file && body.url === undefined) throw AppError.invalid('url or file is required', 'url');
    // The ownership check comes first, so no stranger's upload is ever stored; then the file becomes a link the provider fetches.
    await this.assets.assertOwnGroup(req.user!, groupId);
    const url = file ? await this.portraits.store(req.user!.id, file.buffer, 'file') : body.url!;
    const name = body.name ?? (file?.originalname ? file.originalname.replace(/\.[^.]*$/, '').slice(0, 128) || undefined : undefined);
    return toAssetView(await this.assets.upload(req.user!, groupId, { url, name }));
  }

  @Delete('assets/:assetId')
  @HttpCode(204)
  @UseGuards(VerificationAccessGuard)
  async remove(@Req() req: ConsoleRequest, @Param('assetId') assetId: string): Promise<void> {
    await this.assets.remove(req.user!, assetId);
  }
}
