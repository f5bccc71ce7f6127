import { toUnixSeconds } from '../common/clock';
import type { ContentLinks } from '../storage/signed-links.service';
import type { TaskEntity } from '../tasks/task.entity';
import { toFlatStatus } from '../tasks/task-status';
import type { FlatVideoDto, SubmittedVideoDto } from './dto/video.dto';

/** The submit answer: the same for every family. */
export function toSubmittedVideo(task: TaskEntity): SubmittedVideoDto {
  return {
    id: task.taskId,
    task_id: task.taskId,
    object: 'video',
    model: task.model,
    status: toFlatStatus(task.status),
    progress: task.progress,
    created_at: toUnixSeconds(task.createdAt),
  };
}

/** The flat form of any task, whatever its platform: built from the shared task record and the gateway's signed link. */
export function toFlatVideo(task: TaskEntity, links: ContentLinks): FlatVideoDto {
  const video: FlatVideoDto = { ...toSubmittedVideo(task) };
  if (video.status === 'completed') {
    video.progress = 100;
    video.completed_at = toUnixSeconds(task.finishTime ?? task.updatedAt);
    if (task.outputSize) video.size = task.outputSize;
    // The gateway's own signed link, never the provider's.
    video.metadata = { url: links.contentUrl(task) };
  }
  if (video.status === 'failed') {
    const message = task.failReason ?? 'generation failed';
    video.error = { code: errorCode(message), message };
  }
  return video;
}

/** `content moderation failed` -> `content_moderation_failed`; the part before any detail. */
const errorCode = (reason: string): string =>
  reason.split(':')[0].trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'generation_failed';
