import { Injectable } from '@nestjs/common';
import { UsersService } from '../auth/users.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { refusedLink } from '../storage/signed-links.service';
import { DeliveryRequest, VideoDeliveryService, VideoStream } from '../storage/video-delivery.service';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskQueries } from '../tasks/task-queries.service';
import { TaskReadRepository } from '../tasks/repositories/task-read.repository';
import { toFlatStatus } from '../tasks/task-status';

export type { VideoStream } from '../storage/video-delivery.service';

/**
 * `GET|HEAD /v1/videos/{id}/content`: finds the caller's finished task (or the task of a verified
 * signed link) and hands it to the storage layer, which serves the gateway's copy or the provider's.
 */
@Injectable()
export class VideoContentService {
  constructor(
    private readonly tasks: TaskReadRepository,
    private readonly queries: TaskQueries,
    private readonly delivery: VideoDeliveryService,
    private readonly users: UsersService,
  ) {}

  async open(
    userId: number,
    taskId: string,
    variant: unknown,
    range: string | undefined,
    extra: Omit<DeliveryRequest, 'variant' | 'range'> = {},
  ): Promise<VideoStream> {
    return this.deliver(await this.queries.findOwned(userId, taskId), { ...extra, variant, range });
  }

  /** For a signed link already verified: the task as its owner would see it (a deleted task is gone, a disabled owner's links are dead). */
  async openSigned(taskId: string, request: DeliveryRequest): Promise<VideoStream> {
    const task = await this.tasks.findByTaskId(taskId);
    if (!task || task.deletedAt !== null || task.status === 'REJECTED' || task.status === 'SUBMITTING')
      throw AppError.notFound(`task ${taskId} not found`);
    if (!(await this.users.isActive(task.userId))) throw refusedLink();
    return this.deliver(task, request);
  }

  private deliver(task: TaskEntity, request: DeliveryRequest): Promise<VideoStream> {
    if (request.variant !== undefined && request.variant !== 'video' && request.variant !== 'thumbnail') {
      throw AppError.notFound(`video ${task.taskId} has no ${String(request.variant)} variant`);
    }
    if (task.status !== 'SUCCESS') {
      throw new AppError(ErrorCode.Conflict, `video ${task.taskId} is not completed (status: ${toFlatStatus(task.status)})`);
    }
    return this.delivery.open(task, request);
  }
}
