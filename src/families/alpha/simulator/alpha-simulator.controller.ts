import { Body, Controller, Get, Headers, Param, Post, Query, Req, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { AlphaSimulatorError, AlphaSimulatorService } from './alpha-simulator.service';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';

const BASE = 'simulator/alpha';

/** The family A provider protocol (`/openapi/v2/...`), simulated; mounted only with SIMULATOR=on. */
@ApiExcludeController()
@Controller(BASE)
export class AlphaSimulatorController {
  constructor(private readonly simulator: AlphaSimulatorService) {}

  @Post('openapi/v2/image/upload')
  @UseInterceptors(FileInterceptor('image', { limits: { fileSize: 20 * 1024 * 1024 } }))
  async upload(
    @Headers('api-key') apiKey: string,
    @UploadedFile() image: { buffer: Buffer } | undefined,
    @Body() body: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(res, apiKey, () => this.simulator.uploadImage(image?.buffer, body?.image_url));
  }

  @Post('openapi/v2/video/text/generate')
  async textGenerate(
    @Headers('api-key') apiKey: string,
    @Headers('ai-trace-id') traceId: string,
    @Body() body: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(res, apiKey, () => this.simulator.generate('text', body ?? {}, traceId));
  }

  @Post('openapi/v2/video/img/generate')
  async imageGenerate(
    @Headers('api-key') apiKey: string,
    @Headers('ai-trace-id') traceId: string,
    @Body() body: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(res, apiKey, () => this.simulator.generate('img', body ?? {}, traceId));
  }

  @Get('openapi/v2/video/result/:id')
  async result(@Headers('api-key') apiKey: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const origin = `${req.protocol}://${req.get('host')}`;
    await this.answer(res, apiKey, () =>
      this.simulator.result(id, (videoId, expires) => `${origin}/${BASE}/files/${videoId}.mp4?expires=${expires}`),
    );
  }

  /** The temporary video URL: no API key (like a signed link), 403 once expired; Range and HEAD via sendFile. */
  @Get('files/:file')
  async file(@Param('file') file: string, @Query('expires') expires: string, @Res() res: Response): Promise<void> {
    const videoId = Number(/^(\d+)\.mp4$/.exec(file)?.[1]);
    if (!(await this.simulator.fileAvailable(videoId, Number(expires)))) {
      res.status(403).type('text/plain').send('link expired or unknown');
      return;
    }
    res.sendFile(SAMPLE_VIDEO_PATH, { headers: { 'Content-Type': 'video/mp4' } });
  }

  /** The provider's envelopes: `{ErrCode, ErrMsg, Resp}`, or the lower-case one with an HTTP error. */
  private async answer(res: Response, apiKey: string | undefined, work: () => Promise<unknown>): Promise<void> {
    if (apiKey !== SIMULATOR_API_KEY) {
      res.status(401).json({ err_code: 401, err_msg: 'invalid API-KEY', resp: '' });
      return;
    }
    try {
      res.status(200).json({ ErrCode: 0, ErrMsg: 'success', Resp: await work() });
    } catch (error) {
      if (!(error instanceof AlphaSimulatorError)) throw error;
      res.status(200).json({ ErrCode: error.errCode, ErrMsg: error.message, Resp: {} });
    }
  }
}
