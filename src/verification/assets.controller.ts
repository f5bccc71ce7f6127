import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { AssetsService } from './assets.service';
import { AssetDto, AssetListDto, CreateAssetDto, GroupListDto } from './dto/asset.dto';
import { VerificationAccessGuard } from './verification-access.guard';
import { toAssetView, toGroupView } from './verification.views';

@ApiTags('verification')
@ApiBearerAuth('api-key')
@ApiForbiddenResponse({ description: 'Verification is not enabled for the account' })
@ApiNotFoundResponse({ description: "Unknown group or asset, or another account's" })
@UseGuards(ApiKeyGuard, VerificationAccessGuard)
@Controller('v1/verification')
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Get('groups')
  @ApiOperation({ summary: "The account's verified portrait groups" })
  @ApiOkResponse({ type: GroupListDto })
  async groups(@Req() req: AuthenticatedRequest): Promise<GroupListDto> {
    return { data: (await this.assets.groups(req.user!)).map(toGroupView) };
  }

  @Get('groups/:group_id/assets')
  @ApiOperation({ summary: 'Assets of a verified group (processing ones are refreshed from the provider)' })
  @ApiOkResponse({ type: AssetListDto })
  async list(@Param('group_id') groupId: string, @Req() req: AuthenticatedRequest): Promise<AssetListDto> {
    return { data: (await this.assets.list(req.user!, groupId)).map(toAssetView) };
  }

  @Post('groups/:group_id/assets')
  @ApiOperation({
    summary: 'Upload a portrait by URL',
    description:
      "Starts `processing`; the provider compares the face with the verified person and the asset becomes `active` or `failed` (with the provider's error).",
  })
  @ApiCreatedResponse({ type: AssetDto })
  async upload(@Param('group_id') groupId: string, @Body() body: CreateAssetDto, @Req() req: AuthenticatedRequest): Promise<AssetDto> {
    return toAssetView(await this.assets.upload(req.user!, groupId, { url: body.url, name: body.name }));
  }

  @Get('assets/:asset_id')
  @ApiOperation({ summary: 'One asset; use it in family C requests as asset://<asset_id> once active' })
  @ApiOkResponse({ type: AssetDto })
  async get(@Param('asset_id') assetId: string, @Req() req: AuthenticatedRequest): Promise<AssetDto> {
    return toAssetView(await this.assets.get(req.user!, assetId));
  }

  @Delete('assets/:asset_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an asset (also at the provider)' })
  @ApiNoContentResponse()
  async remove(@Param('asset_id') assetId: string, @Req() req: AuthenticatedRequest): Promise<void> {
    await this.assets.remove(req.user!, assetId);
  }
}
