import { Get, Head, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiProperty } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AdminApi } from '../auth/admin-api.decorator';
import { AppError } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { hasPlayableVideo } from '../tasks/task-admin.view';
import { TaskReadRepository } from '../tasks/repositories/task-read.repository';
import { sendVideoStream } from './send-video-stream';
import { VideoArchiveJob } from './video-archive.job';
import { VideoArchiveRepository } from './video-archive.repository';
import { VideoDeliveryService } from './video-delivery.service';

export class VideoStoreSummaryDto {
  @ApiProperty({ enum: ['file', 's3', 'none'] }) kind: string;
  @ApiProperty({ description: 'bytes of archived videos and thumbnails' }) stored_bytes: number;
  @ApiProperty({ description: 'objects (videos and thumbnails)' }) stored_objects: number;
  @ApiProperty({ description: 'finished tasks waiting to be archived' }) pending: number;
  @ApiProperty({ description: 'finished tasks whose archive failed (re-archive them with POST /api/admin/tasks/{task_id}/archive)' })
  failed: number;
}

export class ArchiveRequeuedDto {
  @ApiProperty() task_id: string;
  @ApiProperty({ example: 'pending' }) archive_status: string;
}

@AdminApi('api/admin')
export class AdminVideoStoreController {
  constructor(
    private readonly archives: VideoArchiveRepository,
    private readonly job: VideoArchiveJob,
    private readonly clock: Clock,
    private readonly tasks: TaskReadRepository,
    private readonly delivery: VideoDeliveryService,
  ) {}

  @Get('video-store')
  @ApiOperation({ summary: 'What the video store holds, and archives pending or failed' })
  @ApiOkResponse({ type: VideoStoreSummaryDto })
  async summary(): Promise<VideoStoreSummaryDto> {
    const totals = await this.archives.totals();
    return {
      kind: this.job.storeKind,
      stored_bytes: totals.bytes,
      stored_objects: totals.objects,
      pending: totals.pending,
      failed: totals.failed,
    };
  }

  @Post('tasks/:task_id/archive')
  @HttpCode(202)
  @ApiOperation({
    summary: "Archive a completed task's video again (after its archive failed); the job copies it from the provider if it still has it",
  })
  @ApiAcceptedResponse({ type: ArchiveRequeuedDto, description: 'due now; the archive job copies it on its next round' })
  @ApiNotFoundResponse({ description: 'no completed, not deleted task with this id, or it is archived already' })
  async rearchive(@Param('task_id') taskId: string): Promise<ArchiveRequeuedDto> {
    if (!(await this.archives.requeue(taskId, this.clock.now())))
      throw AppError.notFound(`task ${taskId} is not a completed task waiting for an archive`);
    return { task_id: taskId, archive_status: 'pending' };
  }

  @Get('tasks/:task_id/thumbnail')
  @ApiOperation({ summary: "A task's poster frame (JPEG), once its video is archived (the admin console's task list)" })
  @ApiProduces('image/jpeg')
  @ApiNotFoundResponse({ description: 'unknown task, not archived yet, or no frame could be decoded' })
  async thumbnail(@Param('task_id') taskId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const task = await this.tasks.findByTaskId(taskId);
    if (!task || !hasPlayableVideo(task)) throw AppError.notFound(`task ${taskId} has no thumbnail`);
    await sendVideoStream(await this.delivery.open(task, { variant: 'thumbnail' }), req, res);
  }

  @Get('tasks/:task_id/content')
  @ApiOperation({ summary: "Any finished task's video (Range supported): the admin console's task drawer plays it" })
  @ApiProduces('video/mp4')
  @ApiNotFoundResponse({ description: 'unknown or unfinished task, or one its customer deleted' })
  content(@Param('task_id') taskId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.sendVideo(taskId, req, res);
  }

  @Head('tasks/:task_id/content')
  contentHead(@Param('task_id') taskId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.sendVideo(taskId, req, res);
  }

  private async sendVideo(taskId: string, req: Request, res: Response): Promise<void> {
    const task = await this.tasks.findByTaskId(taskId);
    if (!task || !hasPlayableVideo(task)) throw AppError.notFound(`task ${taskId} has no video (unfinished, or deleted by its customer)`);
    await sendVideoStream(
      await this.delivery.open(task, { variant: 'video', range: req.headers.range, head: req.method === 'HEAD' }),
      req,
      res,
    );
  }
}
