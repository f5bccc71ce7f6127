import { Injectable } from '@nestjs/common';
import { SignedLinksService } from '../storage/signed-links.service';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskReadRepository } from '../tasks/repositories/task-read.repository';
import { TaskCallbackRepository } from './task-callback.repository';
import type { NewEvent } from './webhook-enqueue.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { eventTypeOf, taskEventData } from './webhook-event.view';

/** What a batch of task ends is published as: their events, and the tasks whose callback URL they took. */
export interface BuiltEvents {
  events: NewEvent[];
  /** Tasks (row ids) with a `callback_url`: their `task_callbacks` rows go with the publish. */
  callbackTaskIds: number[];
}

/** Task ends made into events: the ended tasks, and each end's event with its account's subscribed endpoints and the task's callback URL. */
@Injectable()
export class WebhookEventBuilder {
  constructor(
    private readonly tasks: TaskReadRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly callbacks: TaskCallbackRepository,
    private readonly links: SignedLinksService,
  ) {}

  /** The tasks behind claimed outbox entries, by row id. */
  endsOf(taskRowIds: number[]): Promise<TaskEntity[]> {
    return this.tasks.findByIds(taskRowIds);
  }

  /** An end's event goes to the endpoints of its account subscribed to its type (created before the task ended), and to its callback URL. */
  async build(ends: TaskEntity[]): Promise<BuiltEvents> {
    const userIds = [...new Set(ends.map((task) => task.userId))];
    const endpoints = await this.endpoints.enabledOf(userIds);
    const callbackUrls = await this.callbacks.urlsOf(ends.map((task) => task.id));
    const callbackRows = callbackUrls.size ? await this.endpoints.callbacksOf(userIds) : new Map<number, number>();
    const events: NewEvent[] = [];
    for (const task of ends) {
      const type = eventTypeOf(task);
      const endpointIds = endpoints
        .filter(
          (endpoint) =>
            endpoint.userId === task.userId && endpoint.events.includes(type) && endpoint.createdAt <= (task.finishTime ?? task.updatedAt),
        )
        .map((endpoint) => endpoint.id);
      // The task's own callback URL, signed with the account's callback secret (checked at submit).
      const callbackUrl = callbackUrls.get(task.id);
      const callbackRow = callbackRows.get(task.userId);
      const callbacks = callbackUrl !== undefined && callbackRow !== undefined ? [{ endpointId: callbackRow, url: callbackUrl }] : [];
      if (endpointIds.length || callbacks.length)
        events.push({ userId: task.userId, type, taskId: task.taskId, data: taskEventData(task, this.links), endpointIds, callbacks });
    }
    return { events, callbackTaskIds: [...callbackUrls.keys()] };
  }
}
