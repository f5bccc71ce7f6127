import { Controller, Get, Head, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { ContentAccessGuard } from '../storage/content-access.guard';
import { OpenAiErrorDto } from './dto/openai-error.dto';
import { sendVideoStream } from '../storage/send-video-stream';
import { VideoContentService } from './video-content.service';

type ContentRequest = AuthenticatedRequest & { signedLink?: boolean };

@ApiTags('videos')
@ApiBearerAuth('api-key')
@UseGuards(ContentAccessGuard)
@Controller('v1/videos')
export class VideoContentController {
  constructor(private readonly content: VideoContentService) {}

  @Get(':id/content')
  @ApiOperation({
    summary: "Download the finished video (Range supported; served from the gateway's own copy once archived)",
    description:
      'With an API key, or with the signed link of `metadata.url` / `data.result_url` (`expires` and `signature`, no Authorization header needed). ' +
      "`variant=thumbnail` answers a JPEG poster frame as soon as the video is completed (made from the provider's video until the archived one is stored).",
  })
  @ApiProduces('video/mp4', 'image/jpeg')
  @ApiQuery({
    name: 'variant',
    required: false,
    enum: ['video', 'thumbnail'],
    description: 'other variants answer 404; `thumbnail` is 404 without a video store, or when the video could not be decoded',
  })
  @ApiQuery({ name: 'expires', required: false, description: 'signed link: unix time the link expires' })
  @ApiQuery({ name: 'signature', required: false, description: 'signed link: hex HMAC of the task id and `expires`' })
  @ApiResponse({ status: 200, description: 'the video (or thumbnail)' })
  @ApiResponse({ status: 206, description: 'the requested byte range' })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the ETag (stored copy)' })
  @ApiResponse({
    status: 403,
    type: OpenAiErrorDto,
    description: 'a signed link that was altered or has expired, or whose account is disabled',
  })
  @ApiResponse({ status: 404, type: OpenAiErrorDto, description: "unknown task, another account's task, or a variant there is none of" })
  @ApiResponse({ status: 409, type: OpenAiErrorDto, description: 'the task has not completed; the message names its status' })
  @ApiResponse({
    status: 410,
    type: OpenAiErrorDto,
    description:
      '`video_expired`: the video is gone for good: its link at the provider expired (some providers keep outputs an hour or less), or the provider discarded it, before the gateway could keep a copy',
  })
  @ApiResponse({ status: 416, description: 'the range cannot be satisfied; `Content-Range: bytes */<size>`' })
  @ApiResponse({
    status: 503,
    type: OpenAiErrorDto,
    description: 'not archived yet and the provider does not serve it right now (Retry-After)',
  })
  download(@Param('id') id: string, @Query('variant') variant: unknown, @Req() req: ContentRequest, @Res() res: Response): Promise<void> {
    return this.send(id, variant, req, res);
  }

  @Head(':id/content')
  @ApiOperation({ summary: 'Headers of the finished video (size, ranges) without the body' })
  head(@Param('id') id: string, @Query('variant') variant: unknown, @Req() req: ContentRequest, @Res() res: Response): Promise<void> {
    return this.send(id, variant, req, res);
  }

  private async send(id: string, variant: unknown, req: ContentRequest, res: Response): Promise<void> {
    const request = {
      variant,
      range: req.headers.range,
      ifNoneMatch: req.headers['if-none-match'],
      ifRange: typeof req.headers['if-range'] === 'string' ? req.headers['if-range'] : undefined,
      head: req.method === 'HEAD',
    };
    const video = req.signedLink
      ? await this.content.openSigned(id, request)
      : await this.content.open(req.user!.id, id, variant, request.range, request);
    await sendVideoStream(video, req, res);
  }
}
