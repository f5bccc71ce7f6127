import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { callbackErrorPage } from './callback-page';
import { CallbackQuery, CallbackService } from './callback.service';

/** The provider's browser redirect after a liveness check. No API key: it is the user's browser. */
@ApiTags('verification')
@Controller('v1/callback')
export class CallbackController {
  constructor(private readonly callbacks: CallbackService) {}

  @Get()
  @ApiOperation({
    summary: 'Liveness check callback (browser redirect from the provider)',
    description:
      "Records the reported result on the session found by `bytedToken` (or `providerToken`) and answers 302 to the session's " +
      '`callback_url`, keeping its own query and adding `providerToken`, `resultCode`, `algorithmBaseRespCode`, ' +
      '`reqMeasureInfoValue`, `verify_type`. Unknown or reused tokens get an HTML error page (404 / 409).',
  })
  @ApiQuery({ name: 'bytedToken', required: false, description: "the provider's session token (or `providerToken`)" })
  @ApiQuery({ name: 'providerToken', required: false, description: 'accepted instead of `bytedToken`' })
  @ApiQuery({ name: 'resultCode', required: false, description: '`10000` reports success (proves nothing by itself)' })
  @ApiQuery({ name: 'algorithmBaseRespCode', required: false })
  @ApiQuery({ name: 'reqMeasureInfoValue', required: false })
  @ApiQuery({ name: 'verify_type', required: false, example: 'real_time' })
  @ApiFoundResponse({ description: "Redirect to the session's callback_url" })
  async callback(@Query() query: CallbackQuery, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const outcome = await this.callbacks.handle(query).catch(() => ({
      kind: 'error' as const,
      status: 503 as const,
      title: 'Verification temporarily unavailable',
      message: 'The verification result could not be recorded. Please try again in a moment.',
    }));
    if (outcome.kind === 'redirect') {
      res.redirect(302, outcome.location);
      return;
    }
    res.status(outcome.status).type('html').send(callbackErrorPage(outcome.title, outcome.message));
  }
}
