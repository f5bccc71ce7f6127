import { Controller, Get, Head, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { sendVideoStream } from '../../storage/send-video-stream';
import { VideoContentService } from '../../videos/video-content.service';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';

/**
 * The finished video for the console's inline player: the same proxy as
 * /v1/videos/{id}/content (Range for seeking, HEAD), authorised by the session cookie.
 */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/tasks')
export class CustomerVideoController {
  constructor(private readonly content: VideoContentService) {}

  @Get(':taskId/content')
  @ApiOperation({ summary: 'Stream your finished video (Range supported)' })
  @ApiProduces('video/mp4')
  download(@Param('taskId') taskId: string, @Req() req: ConsoleRequest, @Res() res: Response): Promise<void> {
    return this.send(taskId, req, res);
  }

  @Get(':taskId/thumbnail')
  @ApiOperation({ summary: "Your finished video's poster frame (JPEG), once it is archived; 404 before, or when it could not be decoded" })
  @ApiProduces('image/jpeg')
  async thumbnail(@Param('taskId') taskId: string, @Req() req: ConsoleRequest, @Res() res: Response): Promise<void> {
    await sendVideoStream(await this.content.open(req.user!.id, taskId, 'thumbnail', undefined), req, res);
  }

  @Head(':taskId/content')
  head(@Param('taskId') taskId: string, @Req() req: ConsoleRequest, @Res() res: Response): Promise<void> {
    return this.send(taskId, req, res);
  }

  private async send(taskId: string, req: ConsoleRequest, res: Response): Promise<void> {
    await sendVideoStream(await this.content.open(req.user!.id, taskId, undefined, req.headers.range), req, res);
  }
}
