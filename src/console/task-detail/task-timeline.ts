import { toUnixSeconds } from '../../common/runtime/clock';
import type { LogEntity } from '../../billing/log.entity';
import type { TaskEntity } from '../../tasks/task.entity';
import type { TaskEventEntity } from '../../tasks/task-event.entity';
import { TaskStatus, toFlatStatus } from '../../tasks/task-status';

export type TimelineKind =
  'created' | 'attempt' | 'submitted' | 'status' | 'progress' | 'poll' | 'charged' | 'refunded' | 'archived' | 'webhook';

export interface TimelineEntry {
  /** Unix seconds. */
  at: number;
  kind: TimelineKind;
  status?: string;
  progress?: number;
  detail?: string;
  /** What `detail` says as a code the console translates (the English `detail` stays for the API). */
  detail_code?: string;
  detail_params?: Record<string, string | number>;
}

/** One webhook attempt for the task's events. */
export interface WebhookAttempt {
  type: string;
  attempt: number;
  state: string;
  statusCode: number | null;
  error: string | null;
  at: number;
}

export type Audience = 'customer' | 'admin';

export interface TimelineSources {
  task: TaskEntity;
  /** When the video store archived the task's video (its own record), for tasks older than the timeline. */
  archivedAt?: number | null;
  events: TaskEventEntity[];
  ledger: LogEntity[];
  webhooks: WebhookAttempt[];
}

const SAME_SECOND_ORDER: Record<TimelineKind, number> = {
  created: 0,
  attempt: 1,
  submitted: 2,
  charged: 3,
  poll: 4,
  progress: 5,
  status: 5,
  refunded: 6,
  archived: 7,
  webhook: 8,
};

/** `channel #3 (primary)`, and `... failed: <reason>` (SubmitAttempts): the channel and the reason as parameters the console translates around. */
const SUBMITTED_ON = /^channel #(\d+) \((.*)\)$/s;
const ATTEMPT_FAILED = /^channel #(\d+) \((.*)\) failed: (.*)$/s;

/** Ledger types a customer sees of their task (a hold and its release belong to a submit they never got). */
const CUSTOMER_CHARGE = ['consume'];
const CUSTOMER_REFUND = ['refund'];

/**
 * A task's timeline, oldest first: its recorded state changes (or, for tasks older than the
 * record, what its columns say), the first and last poll, its charge and refund, its archive and
 * its webhook attempts. Customers see flat statuses and none of the operator's words.
 */
export function buildTimeline(sources: TimelineSources, audience: Audience): TimelineEntry[] {
  const { task } = sources;
  const status = (value: string | null | undefined): string | undefined =>
    value ? (audience === 'admin' ? value : toFlatStatus(value as TaskStatus)) : undefined;
  // A customer sees neither refused submits nor the channels tried (the operator's business).
  const entries: TimelineEntry[] = sources.events
    .filter((event) => audience === 'admin' || (event.status !== 'REJECTED' && event.kind !== 'attempt'))
    .map((event) =>
      compact({
        at: toUnixSeconds(event.at),
        kind: event.kind,
        status: status(event.status),
        progress: event.progress ?? undefined,
        detail: detailOf(event, audience),
        ...archiveCodeOf(event, audience),
        ...channelCodeOf(event, audience),
      }),
    );
  entries.push(...fromColumns(task, sources.archivedAt ?? null, sources.events, status));
  if (task.firstPollAt)
    entries.push({ at: toUnixSeconds(task.firstPollAt), kind: 'poll', detail: 'first poll', detail_code: 'first_poll', detail_params: {} });
  if (task.lastPollAt && task.pollCount > 1)
    entries.push({
      at: toUnixSeconds(task.lastPollAt),
      kind: 'poll',
      detail: `last poll (${task.pollCount} in all)`,
      detail_code: 'last_poll',
      detail_params: { count: task.pollCount },
    });
  for (const row of sources.ledger) {
    const charge = audience === 'admin' ? ['consume', 'hold'] : CUSTOMER_CHARGE;
    const refund = audience === 'admin' ? ['refund', 'release'] : CUSTOMER_REFUND;
    if (charge.includes(row.type))
      entries.push({
        at: toUnixSeconds(row.createdAt),
        kind: 'charged',
        detail: `${-row.quota} quota${audience === 'admin' && row.type === 'hold' ? ' (held)' : ''}`,
        detail_code: audience === 'admin' && row.type === 'hold' ? 'quota_held' : 'quota_charged',
        detail_params: { quota: -row.quota },
      });
    if (refund.includes(row.type))
      entries.push({
        at: toUnixSeconds(row.createdAt),
        kind: 'refunded',
        detail: `${row.quota} quota${audience === 'admin' && row.type === 'release' ? ' (hold released)' : ''}`,
        detail_code: audience === 'admin' && row.type === 'release' ? 'quota_released' : 'quota_refunded',
        detail_params: { quota: row.quota },
      });
  }
  for (const attempt of sources.webhooks) {
    const outcome = attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? attempt.state);
    entries.push({
      at: toUnixSeconds(attempt.at),
      kind: 'webhook',
      status: attempt.state,
      detail: `${attempt.type} attempt ${attempt.attempt}: ${outcome}`,
      detail_code: 'webhook_attempt',
      detail_params: { type: attempt.type, attempt: attempt.attempt, outcome },
    });
  }
  // Within one second, in the order things happen to a task (a poll before the move it brought); else as recorded.
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.at - b.entry.at || SAME_SECOND_ORDER[a.entry.kind] - SAME_SECOND_ORDER[b.entry.kind] || a.index - b.index)
    .map(({ entry }) => entry);
}

/** Tasks recorded before the timeline existed (or whose moves were not recorded) still show what their columns know. */
function fromColumns(
  task: TaskEntity,
  archivedAt: number | null,
  events: TaskEventEntity[],
  status: (value: string) => string | undefined,
): TimelineEntry[] {
  const has = (predicate: (event: TaskEventEntity) => boolean) => events.some(predicate);
  const entries: TimelineEntry[] = [];
  if (!has((event) => event.kind === 'created')) entries.push({ at: toUnixSeconds(task.createdAt), kind: 'created' });
  if (task.submitTime && !has((event) => event.kind === 'submitted'))
    entries.push({ at: toUnixSeconds(task.submitTime), kind: 'submitted', status: status('NOT_START') });
  const final = ['SUCCESS', 'FAILURE', 'REJECTED'].includes(task.status);
  if (final && task.finishTime && !has((event) => event.kind === 'status' && event.status === task.status)) {
    entries.push({ at: toUnixSeconds(task.finishTime), kind: 'status', status: status(task.status), progress: task.progress });
  }
  if (archivedAt && !has((event) => event.kind === 'archived'))
    entries.push({ at: toUnixSeconds(archivedAt), kind: 'archived', detail: 'archived', detail_code: 'archived', detail_params: {} });
  return entries;
}

/** A failure's reason is ours (mapped) and the customer already sees it; an archive's outcome is said in our words too. */
function detailOf(event: TaskEventEntity, audience: Audience): string | undefined {
  if (!event.detail) return undefined;
  if (event.kind === 'status' && event.status === 'FAILURE') return event.detail;
  if (event.kind === 'archived') return event.detail;
  return audience === 'admin' ? event.detail : undefined;
}

/** The archive's outcome (written as `archived` or `failed`) as a code. */
function archiveCodeOf(event: TaskEventEntity, audience: Audience): Pick<TimelineEntry, 'detail_code' | 'detail_params'> {
  if (event.kind !== 'archived' || !detailOf(event, audience)) return {};
  return { detail_code: event.detail === 'archived' ? 'archived' : 'archive_failed', detail_params: {} };
}

/** An attempt's or an acceptance's channel (admin only) as a code with parameters. */
function channelCodeOf(event: TaskEventEntity, audience: Audience): Pick<TimelineEntry, 'detail_code' | 'detail_params'> {
  if (audience !== 'admin' || !event.detail) return {};
  if (event.kind === 'submitted') {
    const match = SUBMITTED_ON.exec(event.detail);
    return match ? { detail_code: 'submitted_on', detail_params: { channel_id: Number(match[1]), channel: match[2] } } : {};
  }
  if (event.kind !== 'attempt') return {};
  const match = ATTEMPT_FAILED.exec(event.detail);
  return match
    ? { detail_code: 'attempt_failed', detail_params: { channel_id: Number(match[1]), channel: match[2], reason: match[3] } }
    : {};
}

function compact(entry: TimelineEntry): TimelineEntry {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as unknown as TimelineEntry;
}
