import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TaskEntity } from '../tasks/task.entity';
import { VideoArchiveRepository } from './video-archive.repository';
import { VideoObjectKeys } from './video-object-keys';
import { VIDEO_STORE, type VideoStore } from './video-store';

/** `DELETE /v1/videos/{id}`: the stored video and thumbnail go with the task. */
@Injectable()
export class StoredVideoRemover {
  private readonly logger = new Logger('StoredVideoRemover');

  constructor(
    @Inject(VIDEO_STORE) private readonly store: VideoStore | null,
    private readonly keys: VideoObjectKeys,
    private readonly archives: VideoArchiveRepository,
  ) {}

  /** Removes both objects (absent ones are fine) and forgets the archive; an archive still running drops its copy when it sees the task deleted. */
  async removeCopies(task: TaskEntity): Promise<void> {
    if (!this.store || !(await this.archives.findOf(task.id))?.status) return;
    try {
      await this.store.remove(this.keys.video(task.taskId));
      await this.store.remove(this.keys.thumbnail(task.taskId));
      await this.archives.forget(task.id);
    } catch (error) {
      // The task is forgotten for its owner either way; the copy stays counted, so an operator sees it.
      this.logger.error(`removing the stored copy of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
    }
  }
}
