import { Controller, Get, Head, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { sendVideoStream } from './send-video-stream';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../common/request-context';
import { OpenAiErrorDto } from './dto/openai-error.dto';
import { VideoContentService } from './video-content.service';

@ApiTags('videos')
@ApiBearerAuth('api-key')
@UseGuards(ApiKeyGuard)
@Controller('v1/videos')
export class VideoContentController {
  constructor(private readonly content: VideoContentService) {}

  @Get(':id/content')
  @ApiOperation({ summary: 'Download the finished video through the service (Range supported; the link never expires)' })
  @ApiProduces('video/mp4')
  @ApiQuery({ name: 'variant', required: false, enum: ['video'], description: 'other variants answer 404' })
  @ApiResponse({ status: 200, description: 'the video' })
  @ApiResponse({ status: 206, description: 'the requested byte range' })
  @ApiResponse({ status: 404, type: OpenAiErrorDto, description: "unknown task, another account's task, or a variant the provider has not" })
  @ApiResponse({ status: 409, type: OpenAiErrorDto, description: 'the task has not completed; the message names its status' })
  download(@Param('id') id: string, @Query('variant') variant: unknown, @Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    return this.send(id, variant, req, res);
  }

  @Head(':id/content')
  @ApiOperation({ summary: 'Headers of the finished video (size, ranges) without the body' })
  head(@Param('id') id: string, @Query('variant') variant: unknown, @Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    return this.send(id, variant, req, res);
  }

  private async send(id: string, variant: unknown, req: AuthenticatedRequest, res: Response): Promise<void> {
    await sendVideoStream(await this.content.open(req.user!.id, id, variant, req.headers.range), req, res);
  }
}
