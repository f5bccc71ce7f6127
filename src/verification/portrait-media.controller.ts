import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PortraitUploadsService } from './portrait-uploads.service';

/** Where the verification provider fetches portraits uploaded as files: the signed link is the only credential. */
@ApiTags('verification')
@Controller('media/portraits')
export class PortraitMediaController {
  constructor(private readonly uploads: PortraitUploadsService) {}

  @Get(':upload_id')
  @ApiOperation({ summary: 'A portrait uploaded in the console, for the verification provider (signed, expiring link)' })
  @ApiProduces('image/jpeg', 'image/png', 'image/webp')
  @ApiQuery({ name: 'expires', description: 'Unix seconds' })
  @ApiQuery({ name: 'signature' })
  @ApiOkResponse({ description: 'the image' })
  @ApiForbiddenResponse({ description: 'the link was altered or has expired' })
  @ApiNotFoundResponse({ description: 'the upload is gone' })
  async get(
    @Param('upload_id') uploadId: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const upload = await this.uploads.read(uploadId, expires, signature);
    res.setHeader('Content-Type', upload.contentType);
    res.setHeader('Content-Length', String(upload.bytes.length));
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(upload.bytes);
  }
}
