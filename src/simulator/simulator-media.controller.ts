import { Controller, Get, Head, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { SAMPLE_IMAGE_PATH, SAMPLE_VIDEO_PATH } from '../families/simulator-shared/sample-video';

const FILES: Record<string, { path: string; type: string }> = {
  'sample.png': { path: SAMPLE_IMAGE_PATH, type: 'image/png' },
  'sample.mp4': { path: SAMPLE_VIDEO_PATH, type: 'video/mp4' },
};

/**
 * Sample media to try image-to-video, reference-to-video, video-edit and portrait assets with no
 * network: `{PUBLIC_BASE_URL}/simulator/media/sample.png` and `.../sample.mp4`. The gateway trusts
 * its own PUBLIC_BASE_URL host as a media source, so these work with the default settings.
 * No key needed (like any public media URL); Range and HEAD via sendFile.
 */
@ApiExcludeController()
@Controller('simulator/media')
export class SimulatorMediaController {
  @Get(':file')
  @Head(':file')
  file(@Param('file') file: string, @Res() res: Response): void {
    const sample = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!sample) return void res.status(404).type('text/plain').send('no such sample: sample.png and sample.mp4 exist');
    res.sendFile(sample.path, { headers: { 'Content-Type': sample.type, 'Cache-Control': 'public, max-age=3600' } });
  }
}
