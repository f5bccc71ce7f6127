import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, jsonColumn } from '../database/column-transformers';
import type { Platform } from '../upstream/channel.entity';
import type { ProviderUsage } from '../upstream/upstream-adapter';
import type { RouteRequest } from './route-request';
import type { TaskStatus } from './task-status';
import type { LateCompletion, TaskUsage } from './task-usage';
import type { PriceBasis } from '../billing/settlement';

/** The task record both API surfaces (/v1/videos and /v1/video/generations) read and write. */
@Entity('tasks')
export class TaskEntity {
  /** Internal auto-increment id (`data.id` of the unified form). */
  @PrimaryGeneratedColumn()
  id: number;

  /** Public id, `task_` + 32 random characters. */
  @Column({ name: 'task_id', type: 'varchar', length: 64, unique: true })
  taskId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'user_group', type: 'varchar', length: 64 })
  group: string;

  @Column({ type: 'varchar', length: 16 })
  platform: Platform;

  /** The model the client asked for. */
  @Column({ type: 'varchar', length: 64 })
  model: string;

  @Column({ name: 'upstream_model', type: 'varchar', length: 64 })
  upstreamModel: string;

  /** e.g. textGenerate, imageGenerate, referenceGenerate, videoEdit. */
  @Column({ type: 'varchar', length: 32 })
  action: string;

  @Column({ name: 'channel_id', type: 'integer', nullable: true })
  channelId: number | null;

  @Column({ name: 'upstream_task_id', type: 'varchar', length: 128, nullable: true })
  upstreamTaskId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: TaskStatus;

  /** 0..100, never decreasing. */
  @Column({ type: 'integer' })
  progress: number;

  /** Quota charged for the task. */
  @Column({ type: 'bigint', transformer: bigintColumn })
  quota: number;

  /** The validated, family-specific request the adapter turns into the upstream call. */
  @Column({ type: 'text', transformer: jsonColumn })
  request: Record<string, unknown>;

  /** input echo, upstream/origin model names, and similar display data. */
  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  properties: Record<string, unknown> | null;

  /** The raw body of the latest upstream query. */
  @Column({ name: 'upstream_response', type: 'text', nullable: true, transformer: jsonColumn })
  upstreamResponse: unknown;

  @Column({ name: 'result_url', type: 'text', nullable: true })
  resultUrl: string | null;

  /** `<width>x<height>` of the output when known. */
  @Column({ name: 'output_size', type: 'varchar', length: 32, nullable: true })
  outputSize: string | null;

  @Column({ name: 'fail_reason', type: 'text', nullable: true })
  failReason: string | null;

  @Column({ name: 'submit_time', type: 'bigint', nullable: true, transformer: bigintColumn })
  submitTime: number | null;

  @Column({ name: 'start_time', type: 'bigint', nullable: true, transformer: bigintColumn })
  startTime: number | null;

  @Column({ name: 'finish_time', type: 'bigint', nullable: true, transformer: bigintColumn })
  finishTime: number | null;

  /** When the sync job should next look at the task (ms epoch). */
  @Column({ name: 'next_poll_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  nextPollAt: number | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintColumn })
  leaseUntil: number | null;

  /** Consecutive polls that failed for transport reasons (drives back-off). */
  @Column({ name: 'poll_failures', type: 'integer' })
  pollFailures: number;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, nullable: true })
  idempotencyKey: string | null;

  @Column({ name: 'request_hash', type: 'varchar', length: 64, nullable: true })
  requestHash: string | null;

  /** Set by DELETE /v1/videos/{id}: the task is forgotten for the client, kept for the ledger. */
  @Column({ name: 'deleted_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  deletedAt: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;

  /** The prompt the client gave (searchable in the console), null when the request had none. */
  @Column({ type: 'text', nullable: true })
  prompt: string | null;

  /** Upstream polls so far, whatever their outcome (counted with the poll's own write, never a row per poll). */
  @Column({ name: 'poll_count', type: 'integer', default: 0 })
  pollCount: number;

  @Column({ name: 'first_poll_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  firstPollAt: number | null;

  @Column({ name: 'last_poll_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  lastPollAt: number | null;

  /** How many gateways the submit had passed through before this one (X-Gateway-Hops); its upstream calls say one more. */
  @Column({ name: 'gateway_hops', type: 'integer', default: 0 })
  gatewayHops: number;

  /** When a client's cancel was sent to the provider (null: never, or the provider refused it); a crash of that cancel resumes from it. */
  @Column({ name: 'cancel_sent_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  cancelSentAt: number | null;

  /**
   * What the current attempt's provider last reported of its own cost (at submit or a poll), to tell a new report
   * from a repeat; every report is kept per attempt and channel (`task_provider_usage`). Operators only, never a customer.
   */
  @Column({ name: 'provider_usage', type: 'text', nullable: true, transformer: jsonColumn })
  providerUsage: ProviderUsage | null;

  /**
   * Times the task ran again on another channel after its provider failed it for its own reason
   * (TASK_PROVIDER_RETRIES). A pollable task with no provider id is being resubmitted (ProviderRetry).
   */
  @Column({ name: 'provider_retries', type: 'integer', default: 0 })
  providerRetries: number;

  /**
   * The client's request as the family schemas read it, for a model with several routes: a provider
   * retry on another platform builds that platform's request from it (RouteRequest). Null otherwise.
   */
  @Column({ name: 'route_request', type: 'text', nullable: true, transformer: jsonColumn })
  routeRequest: RouteRequest | null;

  /**
   * What the task keeps at submit to settle on what was delivered (billing/settlement.ts): its model's
   * prices and its group's ratio then, and what was asked. Null on tasks from before it was kept.
   */
  @Column({ name: 'price_basis', type: 'text', nullable: true, transformer: jsonColumn })
  priceBasis: PriceBasis | null;

  /** What the task was settled at once it ended (`usage` of every answer); null while it runs. */
  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  usage: TaskUsage | null;

  /** `usage.quota`, for sums: what the customer paid in the end (0 for a task refunded whole). */
  @Column({ name: 'final_quota', type: 'bigint', nullable: true, transformer: bigintColumn })
  finalQuota: number | null;

  /** `usage.seconds`, for sums. */
  @Column({ name: 'usage_seconds', type: 'integer', nullable: true })
  usageSeconds: number | null;

  /** What the task cost the operator, in millionths of a dollar (billing/provider-cost.ts); null: unknown. Operators only. */
  @Column({ name: 'provider_cost_micro_usd', type: 'bigint', nullable: true, transformer: bigintColumn })
  providerCostMicroUsd: number | null;

  @Column({ name: 'settled_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  settledAt: number | null;

  /** A completion the provider reported after the gateway gave the task up at its deadline (operators only). */
  @Column({ name: 'late_completion', type: 'text', nullable: true, transformer: jsonColumn })
  lateCompletion: LateCompletion | null;
}
