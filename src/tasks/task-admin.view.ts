import { toUnixSeconds } from '../common/runtime/clock';
import type { TaskEntity } from './task.entity';
import { toFlatStatus } from './task-status';

/** A prompt as a list row shows it: at most 120 characters. */
export const promptExcerpt = (prompt: string | null | undefined): string | null => {
  if (!prompt) return null;
  const chars = [...prompt];
  return chars.length <= 120 ? prompt : `${chars.slice(0, 119).join('')}…`;
};

/** Completed and not deleted by its customer: the only tasks whose video the admin API still serves. */
export const hasPlayableVideo = (task: TaskEntity): boolean => task.status === 'SUCCESS' && task.deletedAt === null;

/** What the video store (StorageModule) says of a task's copy, for the views that show it. */
export interface TaskArchiveFacts {
  status: string | null;
  hasThumbnail: boolean;
  /** Its provider's link died before a copy was made: the video is gone. */
  videoExpired: boolean;
}

/** The operator's view of a task: everything but secrets and the raw request body. */
export const toAdminTaskView = (task: TaskEntity, archive: TaskArchiveFacts, stuck = false) => ({
  id: task.id,
  task_id: task.taskId,
  user_id: task.userId,
  group: task.group,
  platform: task.platform,
  model: task.model,
  upstream_model: task.upstreamModel,
  action: task.action,
  channel_id: task.channelId,
  upstream_task_id: task.upstreamTaskId,
  status: task.status,
  flat_status: toFlatStatus(task.status),
  progress: task.progress,
  quota: task.quota,
  fail_reason: task.failReason,
  failure_reason: task.failReason,
  prompt: promptExcerpt(task.prompt),
  poll_failures: task.pollFailures,
  next_poll_at: toUnixSeconds(task.nextPollAt),
  submit_time: toUnixSeconds(task.submitTime),
  start_time: toUnixSeconds(task.startTime),
  finish_time: toUnixSeconds(task.finishTime),
  created_at: toUnixSeconds(task.createdAt),
  updated_at: toUnixSeconds(task.updatedAt),
  deleted: task.deletedAt !== null,
  has_video: hasPlayableVideo(task) && !archive.videoExpired,
  video_expired: task.status === 'SUCCESS' && archive.videoExpired,
  archive_status: archive.status,
  has_thumbnail: archive.hasThumbnail,
  stuck,
});
