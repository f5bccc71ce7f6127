import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { toCurrencyView } from './currency.view';
import { ConsoleSessionDto, ConsoleSignInDto, ConsoleSignUpDto } from './console-auth.dto';
import { ConsoleAuthService, OpenedSession } from './console-auth.service';
import { CONSOLE_SESSION_COOKIE, ConsoleRequest, ResolvedConsoleSession } from './console-request';
import { clearSessionCookie, setSessionCookie } from './console-session-cookie';
import { ConsoleSessionsService } from './console-sessions.service';
import { SignInThrottleGuard } from './sign-in-throttle.guard';

export const toConsoleSessionView = (session: ResolvedConsoleSession, config: AppConfig): ConsoleSessionDto => ({
  role: session.role,
  kind: session.kind,
  user: session.user && {
    id: session.user.id,
    username: session.user.username,
    group: session.user.group,
    role: session.user.role,
    quota: session.user.quota,
    used_quota: session.user.usedQuota,
    verification_enabled: session.user.verificationEnabled,
  },
  csrf_token: session.csrfToken,
  expires_at: Math.floor(session.expiresAt / 1000),
  currency: toCurrencyView(config),
});

@ApiTags('console')
@Controller('console/api')
export class ConsoleAuthController {
  constructor(
    private readonly auth: ConsoleAuthService,
    private readonly sessions: ConsoleSessionsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('session')
  @HttpCode(200)
  @UseGuards(SignInThrottleGuard)
  @ApiOperation({ summary: 'Sign in (admin token, or username and password); sets the http-only session cookie' })
  @ApiOkResponse({ type: ConsoleSessionDto })
  async signIn(
    @Body() body: ConsoleSignInDto,
    @Req() req: ConsoleRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionDto> {
    const opened = await this.auth.signIn({ adminToken: body.admin_token, username: body.username, password: body.password });
    return this.start(opened, req, res);
  }

  @Post('signup')
  @HttpCode(201)
  @UseGuards(SignInThrottleGuard)
  @ApiOperation({ summary: 'Create a customer account (zero balance) and sign in' })
  @ApiCreatedResponse({ type: ConsoleSessionDto })
  async signUp(
    @Body() body: ConsoleSignUpDto,
    @Req() req: ConsoleRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionDto> {
    return this.start(await this.auth.signUp(body.username, body.password), req, res);
  }

  @Get('session')
  @ApiOperation({ summary: 'The current console session and its CSRF token; 401 when signed out' })
  @ApiOkResponse({ type: ConsoleSessionDto })
  current(@Req() req: ConsoleRequest): ConsoleSessionDto {
    if (!req.consoleSession) throw new AppError(ErrorCode.Unauthorized, 'not signed in');
    return toConsoleSessionView(req.consoleSession, this.config);
  }

  @Delete('session')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: ends the session on the server and clears the cookie' })
  async signOut(@Req() req: ConsoleRequest, @Res({ passthrough: true }) res: Response): Promise<void> {
    const sessionId = (req.cookies as Record<string, string> | undefined)?.[CONSOLE_SESSION_COOKIE];
    if (req.consoleSession && sessionId) await this.auth.signOut(sessionId);
    clearSessionCookie(req, res);
  }

  private async start(opened: OpenedSession, req: ConsoleRequest, res: Response): Promise<ConsoleSessionDto> {
    // Signing in again replaces the browser's previous session rather than leaving it alive.
    const previous = (req.cookies as Record<string, string> | undefined)?.[CONSOLE_SESSION_COOKIE];
    if (previous) await this.auth.signOut(previous);
    const session = await this.sessions.resolve(opened.sessionId);
    if (!session) throw new AppError(ErrorCode.Internal, 'session could not be opened');
    setSessionCookie(req, res, opened.sessionId, opened.expiresAt, this.clock.now());
    return toConsoleSessionView(session, this.config);
  }
}
