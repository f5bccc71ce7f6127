import type { FamilyTaskDraft } from '../families/family';
import type { StoredRequest } from '../upstream/upstream-task';
import type { RouteRequest } from './route-request';
import type { SubmitFieldRecorder } from './task-submit-fields';

/** A family's draft as the submit completes it: ready to be priced, recorded and sent upstream. `R`: the family's request type. */
export interface TaskDraft<R extends StoredRequest = StoredRequest> extends FamilyTaskDraft<R> {
  /** What the model's route sends upstream (a channel's model_mapping still overrides it); set by the submit pipeline. */
  routeModel?: string;
  /** The alias the client named the model by, which the task records (its id when absent): what the client sees never changes. */
  askedModel?: string;
  /** Idempotency-Key header: the same key and body within 24 h return the first task. */
  idempotencyKey?: string;
  /** How many gateways the submit had passed through before this one (X-Gateway-Hops); 0 from a client. */
  gatewayHops?: number;
  /** For a model with several routes: the client's request, kept on the task for a provider retry on another platform. */
  routeRequest?: RouteRequest | null;
  /** Other modules' rows written with the task's record (TaskSubmitFields: its `callback_url`). */
  recordWithTask?: SubmitFieldRecorder[];
}
