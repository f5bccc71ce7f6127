import { toUnixSeconds } from '../common/runtime/clock';
import type { ContentLinks } from '../storage/signed-links.service';
import type { TaskEntity } from '../tasks/task.entity';
import { toSubmittedTask } from '../tasks/submitted-task.view';
import { asCustomerSees } from '../tasks/settlement/as-customer-sees';
import { usageForAnswer } from '../tasks/settlement/task-usage-view';
import { FAILURE, failureCode } from '../upstream/failure-reason';
import type { FlatVideoDto, SubmittedVideoDto } from './dto/video.dto';

/** The submit answer: the same for every family (and on /v1/video/generations). */
export const toSubmittedVideo = (task: TaskEntity): SubmittedVideoDto => ({ ...toSubmittedTask(task), ...remixedFrom(task) });

/** OpenAI's `remixed_from_video_id`: the task a remix (or `metadata.source_task_id`) was made from. */
function remixedFrom(task: TaskEntity): { remixed_from_video_id?: string } {
  const source = task.properties?.source_task_id;
  return typeof source === 'string' ? { remixed_from_video_id: source } : {};
}

/** The length asked for, as OpenAI's video object says it (a string of whole seconds); undefined where the output follows an input (video edit). */
function requestedSeconds(task: TaskEntity): string | undefined {
  const request = task.request ?? {};
  const value = request.seconds ?? request.duration ?? request.durationSeconds;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? String(value) : undefined;
}

/** The flat form of any task, whatever its platform: built from the shared task record and the gateway's signed link. */
export function toFlatVideo(ended: TaskEntity, links: ContentLinks): FlatVideoDto {
  const task = asCustomerSees(ended);
  // expires_at as OpenAI's video object: when the downloadable asset (here: the signed link) expires; null until there is one.
  const video: FlatVideoDto = { ...toSubmittedVideo(task), expires_at: null };
  const seconds = requestedSeconds(task);
  if (seconds !== undefined) video.seconds = seconds;
  // The size the provider made, or (until then, or when it says none) the one the task asked for.
  if (task.outputSize) video.size = task.outputSize;
  if (video.status === 'completed') {
    video.progress = 100;
    video.completed_at = toUnixSeconds(task.finishTime ?? task.updatedAt);
    // The gateway's own signed link, never the provider's.
    const url = links.contentUrl(task);
    video.metadata = { url };
    video.expires_at = Number(new URL(url).searchParams.get('expires')) || null;
  }
  if (video.status === 'failed') {
    const message = task.failReason ?? FAILURE.generation;
    video.error = { code: failureCode(message), message };
  }
  const usage = usageForAnswer(task, links.quotaPerUnit);
  if (usage) video.usage = usage;
  return video;
}
