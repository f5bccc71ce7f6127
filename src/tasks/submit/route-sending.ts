import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamAdapter } from '../../upstream/upstream-adapter';
import type { TaskEntity } from '../task.entity';

/** A task's fields that depend on the family it is sent by: rewritten when a submit moves to a channel of another platform. */
export type FamilyFields = Pick<TaskEntity, 'platform' | 'request' | 'action' | 'properties' | 'outputSize'>;

/** How a task goes to one channel: that platform's adapter, the route's model name there, and the task's fields for its family. */
export interface RouteSending {
  adapter: UpstreamAdapter;
  routeModel: string;
  /** The task's fields on this route; null: the task's own (its stored request as it is). */
  fields: FamilyFields | null;
}

/** Which route each candidate channel is sent by; null when that route's family refuses the request (the channel is passed over). */
export interface SubmitRoutes {
  sendingOn(channel: ChannelEntity): Promise<RouteSending | null>;
}

/** One route for every candidate: the task's own family (the resubmit after a crash, a provider retry on its platform). */
export function oneRoute(adapter: UpstreamAdapter, routeModel: string): SubmitRoutes {
  const sending: RouteSending = { adapter, routeModel, fields: null };
  return { sendingOn: () => Promise.resolve(sending) };
}
