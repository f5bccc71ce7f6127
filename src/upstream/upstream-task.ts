/**
 * What a family's adapter reads of a task: the request its own drafts wrote (`Request`, the family's
 * type), and the few facts of the task every call needs. The task core passes its record; the family
 * never sees the database row, so what its drafts write is what its adapter reads, checked by the compiler.
 */
export interface UpstreamTask<Request> {
  readonly taskId: string;
  readonly request: Request;
  /** The model name sent upstream (the channel's mapping, or the family's default). */
  readonly upstreamModel: string;
  /** The provider's id, once it accepted the task. */
  readonly upstreamTaskId: string | null;
  /** How many gateways the submit passed through before this one; every upstream call says one more. */
  readonly gatewayHops: number;
  readonly createdAt: number;
  /** When the provider accepted the task. */
  readonly submitTime: number | null;
}

/**
 * A family's request as the task core stores it (JSON): an object type whose fields are data. The
 * families write theirs as `type` aliases, which TypeScript lets stand for such a record.
 */
export type StoredRequest = Record<string, unknown>;
