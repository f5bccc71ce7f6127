import type { ApiKeyEntity } from '../auth/api-key.entity';
import type { UserEntity } from '../auth/user.entity';
import type { QuoteRequest } from '../billing/pricing.service';
import type { ModelMode } from '../catalog/catalog-entry';
import type { Platform } from '../upstream/channel.entity';
import type { StoredRequest } from '../upstream/upstream-task';
import type { RouteRequest } from './route-request';
import type { SubmitFieldRecorder } from './task-submit-fields';

// What a family hands the task core, and who asks: types only, so the families depend on them without a cycle.

/** A validated request, ready to be priced, recorded and sent upstream. `R`: the family's request type. */
export interface TaskDraft<R extends StoredRequest = StoredRequest> {
  platform: Platform;
  model: string;
  action: string;
  /** What the family adapter needs to build the upstream call (the adapter reads it as the same type). */
  request: R;
  properties?: Record<string, unknown>;
  quote: Omit<QuoteRequest, 'group'>;
  /** The pixel size asked for (`<w>x<h>`): the task's `size` until the provider reports the one it made. */
  size?: string;
  /** How the task is made, in the catalog's vocabulary (checked against the entry's modes; picks a route's id by mode). */
  mode?: ModelMode;
  /** What the model's route sends upstream (a channel's model_mapping still overrides it); set by the submit pipeline. */
  routeModel?: string;
  /** Idempotency-Key header: the same key and body within 24 h return the first task. */
  idempotencyKey?: string;
  /** How many gateways the submit had passed through before this one (X-Gateway-Hops); 0 from a client. */
  gatewayHops?: number;
  /** Only these channels may run the task (e.g. the provider account holding its verified assets). */
  channelIds?: number[];
  /** For a model with several routes: the client's request, kept on the task for a provider retry on another platform. */
  routeRequest?: RouteRequest | null;
  /** Other modules' rows written with the task's record (TaskSubmitFields: its `callback_url`). */
  recordWithTask?: SubmitFieldRecorder[];
}

export interface Caller {
  user: UserEntity;
  apiKey?: ApiKeyEntity | null;
}
