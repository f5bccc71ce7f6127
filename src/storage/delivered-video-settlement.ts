import { Inject, Injectable, Logger } from '@nestjs/common';
import { readVideoFacts } from '../media/read-video-facts';
import type { VideoFacts } from '../media/video-facts';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskSettlementService } from '../tasks/settlement/task-settlement.service';
import { storedVideoSource } from './stored-video-source';
import { VideoObjectKeys } from './video-object-keys';
import { VIDEO_STORE, type VideoStore } from './video-store';

/**
 * Settles a finished task on the copy the gateway keeps: the stored video's facts read from its
 * container's index (ranged reads, never the whole file), then the settlement. A video that cannot be
 * read (not a video, the store failing the read) is charged as asked, and says so; a task whose video
 * could not be kept at all is settled as asked too. Settling twice changes nothing.
 */
@Injectable()
export class DeliveredVideoSettlement {
  private readonly logger = new Logger('Settlement');

  constructor(
    @Inject(VIDEO_STORE) private readonly store: VideoStore | null,
    private readonly keys: VideoObjectKeys,
    private readonly settlement: TaskSettlementService,
  ) {}

  /** After the video was stored. */
  async settleStored(task: TaskEntity): Promise<void> {
    await this.settlement.settle(task, await this.factsOf(task), this.store ? 'unreadable' : 'not_stored');
  }

  /** When the video could not be kept (too large, gone, the provider's link expired, too many failed copies). */
  async settleAsAsked(task: TaskEntity): Promise<void> {
    await this.settlement.settle(task, null, 'not_stored');
  }

  private async factsOf(task: TaskEntity): Promise<VideoFacts | null> {
    if (!this.store) return null;
    try {
      return await readVideoFacts(await storedVideoSource(this.store, this.keys.video(task.taskId)));
    } catch (error) {
      this.logger.warn(`task ${task.taskId}: the stored video could not be read (${(error as Error)?.message ?? error}): charged as asked`);
      return null;
    }
  }
}
