import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ProviderCallbackIntake } from './provider-callback-intake';

/**
 * Where providers call back (providers that push): no API key and no client rate limit, the token in
 * the URL is the credential. Internal: not part of the customer API, so not in Swagger.
 */
@ApiExcludeController()
@Controller('v1/provider-callbacks')
export class ProviderCallbacksController {
  constructor(private readonly intake: ProviderCallbackIntake) {}

  @Post(':platform/:token')
  @HttpCode(200)
  async receive(
    @Param('platform') platform: string,
    @Param('token') token: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // The body's exact bytes (bootstrap reads this route's bodies raw, at most 1 MiB): signatures are over them.
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const answer = await this.intake.receive({ platform, token, rawBody, headers: req.headers });
    res.status(answer.status).json(answer.body);
  }
}
