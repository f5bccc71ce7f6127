import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TaskEntity } from '../tasks/task.entity';
import { VideoArchiveRepository } from './video-archive.repository';
import { VideoObjectKeys } from './video-object-keys';
import { VIDEO_STORE, type VideoStore } from './video-store';

/** `DELETE /v1/videos/{id}` and TASK_RETENTION: the stored video and thumbnail go with the task. */
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

  /**
   * TASK_RETENTION, before the task's rows go: removes both objects whatever the archive says (a copy
   * may be mid-write; an absent object is fine) and resolves with the bytes the archive recorded.
   * Rejects when the store fails, so the rows stay until a later try removes the objects.
   */
  async removeObjectsOf(task: TaskEntity): Promise<number> {
    if (!this.store) return 0;
    const archive = await this.archives.findOf(task.id);
    await this.store.remove(this.keys.video(task.taskId));
    await this.store.remove(this.keys.thumbnail(task.taskId));
    return archive?.status === 'archived' ? Number(archive.size ?? 0) + Number(archive.thumbnailSize ?? 0) : 0;
  }
}
