import { Injectable } from '@nestjs/common';
import { toUnixSeconds } from '../../common/runtime/clock';
import { type ArchiveSummary, NO_ARCHIVE } from '../../storage/video-archive.entity';
import { VideoArchiveRepository } from '../../storage/video-archive.repository';
import type { TaskEntity } from '../../tasks/task.entity';
import { asCustomerSees } from '../../tasks/settlement/as-customer-sees';
import type { TaskSort } from '../../tasks/task-list-query';
import { TaskQueries } from '../../tasks/task-queries.service';
import { promptExcerpt } from '../dto/task-list-query.dto';
import { TaskStatus, toFlatStatus } from '../../tasks/task-status';
import type { FlatStatusFilter } from './customer-query.dto';

/** What a customer sees of a task: states as in the flat API, never channels or upstream ids. */
export const toCustomerTaskView = (ended: TaskEntity, archive: ArchiveSummary) => customerTaskView(asCustomerSees(ended), archive);

const customerTaskView = (task: TaskEntity, archive: ArchiveSummary) => ({
  task_id: task.taskId,
  model: task.model,
  action: task.action,
  status: toFlatStatus(task.status),
  progress: task.progress,
  quota: task.quota,
  fail_reason: task.status === 'FAILURE' ? task.failReason : null,
  failure_reason: task.status === 'FAILURE' ? task.failReason : null,
  prompt: promptExcerpt(task.prompt),
  size: task.outputSize,
  has_video: task.status === 'SUCCESS' && !archive.videoExpired,
  // The provider's link died before the gateway could keep a copy: no player, a note instead.
  video_expired: task.status === 'SUCCESS' && archive.videoExpired,
  // A poster frame exists once the video was archived and could be decoded.
  has_thumbnail: task.status === 'SUCCESS' && archive.hasThumbnail,
  created_at: toUnixSeconds(task.createdAt),
  completed_at: task.status === 'SUCCESS' ? toUnixSeconds(task.finishTime) : null,
  finished_at: task.finishTime ? toUnixSeconds(task.finishTime) : null,
});

/** Tasks a client can see (the flat API hides SUBMITTING and REJECTED ones). */
const VISIBLE: Record<FlatStatusFilter, TaskStatus[]> = {
  queued: ['NOT_START', 'QUEUED'],
  in_progress: ['IN_PROGRESS'],
  completed: ['SUCCESS'],
  failed: ['FAILURE'],
};

@Injectable()
export class CustomerTasksService {
  constructor(
    private readonly tasks: TaskQueries,
    private readonly archives: VideoArchiveRepository,
  ) {}

  async list(
    userId: number,
    query: { status?: FlatStatusFilter; model?: string; q?: string; sort?: TaskSort; page: number; pageSize: number },
  ) {
    const status = query.status ? VISIBLE[query.status] : Object.values(VISIBLE).flat();
    const { data, total } = await this.tasks.list({
      userId,
      status,
      model: query.model,
      q: query.q,
      sort: query.sort,
      excludeDeleted: true,
      page: query.page,
      pageSize: query.pageSize,
    });
    const archives = await this.archives.summariesOf(data.map((task) => task.id));
    return { data: data.map((task) => toCustomerTaskView(task, archives.get(task.id) ?? NO_ARCHIVE)), total };
  }

  /** The caller's own visible task; 404 for anyone else's. */
  get(userId: number, taskId: string): Promise<TaskEntity> {
    return this.tasks.findOwned(userId, taskId);
  }

  /** Models the customer has used, for the tasks filter. */
  usedModels(userId: number): Promise<string[]> {
    return this.tasks.modelsUsedBy(userId);
  }
}
