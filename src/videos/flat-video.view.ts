import { toUnixSeconds } from '../common/clock';
import { isShowableLink } from '../common/url-guard';
import type { TaskEntity } from '../tasks/task.entity';
import { toSubmittedTask } from '../tasks/submitted-task.view';
import { FAILURE, failureCode } from '../upstream/failure-reason';
import type { FlatVideoDto, SubmittedVideoDto } from './dto/video.dto';

/** The submit answer: the same for every family (and on /v1/video/generations). */
export const toSubmittedVideo = (task: TaskEntity): SubmittedVideoDto => toSubmittedTask(task);

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
