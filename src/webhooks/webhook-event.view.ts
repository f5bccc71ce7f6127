import { toUnixSeconds } from '../common/runtime/clock';
import type { ContentLinks } from '../storage/signed-links.service';
import type { TaskEntity } from '../tasks/task.entity';
import { toFlatVideo } from '../videos/flat-video.view';
import type { WebhookEventType } from './webhook-endpoint.entity';

/** The event type of a task's end. */
export const eventTypeOf = (task: Pick<TaskEntity, 'status'>): WebhookEventType =>
  task.status === 'SUCCESS' ? 'video.completed' : 'video.failed';

/** The body every attempt sends (and signs): `{id, object: "event", type, created_at, data}`, `data` the task in the flat form. */
export function eventBody(eventId: string, type: WebhookEventType, createdAtMs: number, data: unknown): string {
  return JSON.stringify({ id: eventId, object: 'event', type, created_at: toUnixSeconds(createdAtMs), data });
}

/** The task as `GET /v1/videos/{id}` shows it, its `metadata.url` a signed link valid `VIDEO_URL_TTL_S` from the end. */
export const taskEventData = (task: TaskEntity, links: ContentLinks): unknown => toFlatVideo(task, links);
