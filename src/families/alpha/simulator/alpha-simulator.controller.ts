import { Controller, Get, Head, Post, Req, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { AlphaEmulator, AlphaUploadForm } from '../emulator/alpha-emulator';

const MOUNT = '/simulator/alpha';

/** What multer hands over of the `image` part. */
interface UploadedImage {
  buffer: Buffer;
  originalname?: string;
  mimetype?: string;
}

/** The embedded family A provider under /simulator/alpha: every route is the family's one emulator (emulator/alpha-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/alpha')
export class AlphaSimulatorController {
  constructor(private readonly emulator: AlphaEmulator) {}

  @Post('openapi/v2/image/upload')
  @UseInterceptors(FileInterceptor('image', { limits: { fileSize: 20 * 1024 * 1024 } }))
  upload(@Req() req: Request, @Res() res: Response, @UploadedFile() image: UploadedImage | undefined): Promise<void> {
    const fields = (req.body ?? {}) as Record<string, unknown>;
    const form: AlphaUploadForm = {
      ...(image ? { file: { data: image.buffer, filename: image.originalname, contentType: image.mimetype } } : {}),
      ...(typeof fields.image_url === 'string' ? { imageUrl: fields.image_url } : {}),
    };
    return this.serve(req, res, form);
  }

  @Post('openapi/v2/video/text/generate')
  textGenerate(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Post('openapi/v2/video/img/generate')
  imageGenerate(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('openapi/v2/video/result/:id')
  result(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  /** The temporary video URL: no API key (like a signed link); Range and HEAD as a CDN. */
  @Get('files/:file')
  @Head('files/:file')
  file(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response, form?: AlphaUploadForm): Promise<void> {
    const request = { ...emulatorRequestOf(req, MOUNT), ...(form ? { upload: form, json: undefined } : {}) };
    const reply = await this.emulator.handle(request, `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
