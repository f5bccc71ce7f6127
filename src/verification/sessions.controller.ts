import { Body, Controller, Get, Param, Post, Req, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { CreateSessionDto, SessionCreatedDto, SessionDto } from './dto/session.dto';
import { SessionsService } from './sessions.service';
import { VerificationAccessGuard } from './verification-access.guard';
import { toSessionView } from './verification.views';

@ApiTags('verification')
@ApiBearerAuth('api-key')
@ApiForbiddenResponse({ description: 'Verification is not enabled for the account (apply at POST /v1/verification/applications)' })
@UseGuards(ApiKeyGuard, VerificationAccessGuard)
@Controller('v1/verification/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post()
  @ApiOperation({
    summary: 'Start a liveness check',
    description:
      "Send the user's browser to `h5_link` (valid about 120 s, single use). Afterwards the browser comes back to `callback_url` " +
      'with `providerToken`, `resultCode`, `algorithmBaseRespCode`, `reqMeasureInfoValue` and `verify_type` added to its query. ' +
      '`resultCode` 10000 means the check passed: then read the session to obtain `group_id`.',
  })
  @ApiCreatedResponse({ type: SessionCreatedDto })
  async create(@Body() body: CreateSessionDto, @Req() req: AuthenticatedRequest): Promise<SessionCreatedDto> {
    const session = await this.sessions.create(req.user!, body.callback_url);
    return { session_id: session.sessionId, provider_token: session.providerToken, h5_link: session.h5Link };
  }

  @Get(':session_id')
  @ApiOperation({
    summary: 'A session as the provider confirms it',
    description: 'Asks the provider; `group_id` appears only once the provider confirmed the check (a callback alone proves nothing).',
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiNotFoundResponse({ description: "Unknown session, or another account's" })
  async get(@Param('session_id') sessionId: string, @Req() req: AuthenticatedRequest): Promise<SessionDto> {
    return toSessionView(await this.sessions.get(req.user!, sessionId));
  }
}
