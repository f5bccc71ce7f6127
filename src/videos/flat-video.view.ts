import { toUnixSeconds } from '../common/clock';
import { isShowableLink } from '../common/url-guard';
import type { TaskEntity } from '../tasks/task.entity';
import { toFlatStatus } from '../tasks/task-status';
import { FAILURE, failureCode } from '../upstream/failure-reason';
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

/** The flat form of any task, whatever its platform: built from the shared task record only. */
export function toFlatVideo(task: TaskEntity): FlatVideoDto {
  const video: FlatVideoDto = { ...toSubmittedVideo(task) };
  if (video.status === 'completed') {
    video.progress = 100;
    video.completed_at = toUnixSeconds(task.finishTime ?? task.updatedAt);
    if (task.outputSize) video.size = task.outputSize;
    // Links are checked when stored; a link kept before that (file://, link-local...) is not shown.
    if (task.resultUrl && isShowableLink(task.resultUrl)) video.metadata = { url: task.resultUrl };
  }
  if (video.status === 'failed') {
    const message = task.failReason ?? FAILURE.generation;
    video.error = { code: failureCode(message), message };
  }
  return video;
}
