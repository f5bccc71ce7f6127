import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { SignedLinksService } from '../storage/signed-links.service';
import { StoredVideoRemover } from '../storage/stored-video-remover.service';
import { TaskQueries } from '../tasks/task-queries.service';
import { TaskReadRepository } from '../tasks/repositories/task-read.repository';
import { TaskStateRepository } from '../tasks/repositories/task-state.repository';
import { isTerminal, toFlatStatus } from '../tasks/task-status';
import type { DeletedVideoDto, FlatVideoDto, ListVideosQueryDto, VideoListDto } from './dto/video.dto';
import { toFlatVideo } from './flat-video.view';

const DEFAULT_PAGE_SIZE = 20;

/** Reading, listing and forgetting a caller's tasks in the flat form (every platform alike). */
@Injectable()
export class VideoQueriesService {
  constructor(
    private readonly tasks: TaskReadRepository,
    private readonly states: TaskStateRepository,
    private readonly queries: TaskQueries,
    private readonly clock: Clock,
    private readonly links: SignedLinksService,
    private readonly stored: StoredVideoRemover,
  ) {}

  async get(userId: number, taskId: string): Promise<FlatVideoDto> {
    return toFlatVideo(await this.queries.findOwned(userId, taskId), this.links);
  }

  /** Cursor paging as OpenAI's list: `after` is a task id, newest first unless `order=asc`. */
  async list(userId: number, query: ListVideosQueryDto): Promise<VideoListDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const order = query.order ?? 'desc';
    let afterId: number | undefined;
    if (query.after !== undefined) {
      const cursor = await this.tasks.findByTaskId(query.after);
      if (!cursor || cursor.userId !== userId) throw AppError.invalid(`after: no video ${query.after}`, 'after');
      afterId = cursor.id;
    }
    const rows = await this.queries.listOwnedPage(userId, { afterId, limit: limit + 1, order });
    const data = rows.slice(0, limit).map((task) => toFlatVideo(task, this.links));
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data[data.length - 1]?.id ?? null,
      has_more: rows.length > limit,
    };
  }

  /** Only finished tasks can be forgotten; the record stays for the ledger. */
  async delete(userId: number, taskId: string): Promise<DeletedVideoDto> {
    const task = await this.queries.findOwned(userId, taskId);
    if (!isTerminal(task.status)) {
      throw new AppError(
        ErrorCode.Conflict,
        `video ${taskId} is not finished yet (status: ${toFlatStatus(task.status)}); only completed or failed videos can be deleted`,
      );
    }
    if (!(await this.states.markDeleted(userId, taskId, this.clock.now()))) throw AppError.notFound(`task ${taskId} not found`);
    await this.stored.removeCopies(task);
    return { id: taskId, object: 'video.deleted', deleted: true };
  }
}
