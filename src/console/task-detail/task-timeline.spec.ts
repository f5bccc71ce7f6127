import type { LogEntity } from '../../billing/log.entity';
import type { TaskEntity } from '../../tasks/task.entity';
import type { TaskEventEntity } from '../../tasks/task-event.entity';
import { buildTimeline } from './task-timeline';

const S = 1_000;
const task = (overrides: Partial<TaskEntity> = {}): TaskEntity =>
  ({
    id: 1,
    taskId: 'task_x',
    status: 'FAILURE',
    progress: 100,
    createdAt: 10 * S,
    submitTime: 11 * S,
    finishTime: 40 * S,
    pollCount: 3,
    firstPollAt: 20 * S,
    lastPollAt: 40 * S,
    ...overrides,
  }) as TaskEntity;
const event = (kind: TaskEventEntity['kind'], at: number, extra: Partial<TaskEventEntity> = {}) => ({
  id: at,
  taskRowId: 1,
  kind,
  status: null,
  progress: null,
  detail: null,
  at: at * S,
  ...extra,
});
const log = (type: LogEntity['type'], quota: number, at: number) => ({ id: at, type, quota, createdAt: at * S }) as LogEntity;

describe('task timeline', () => {
  const events = [
    event('created', 10, { status: 'SUBMITTING', progress: 0 }),
    event('submitted', 11, { status: 'NOT_START', progress: 0 }),
    event('progress', 30, { status: 'IN_PROGRESS', progress: 50 }),
    event('status', 40, { status: 'FAILURE', progress: 100, detail: 'generation failed' }),
  ];
  const ledger = [log('hold', -500, 10), log('refund', 500, 40)];

  it('orders everything by time, a poll before the move it brought, and shows flat statuses to customers', () => {
    const timeline = buildTimeline(
      { task: task(), events, ledger: [log('consume', -500, 10), log('refund', 500, 40)], webhooks: [] },
      'customer',
    );
    expect(timeline).toEqual([
      { at: 10, kind: 'created', status: 'queued', progress: 0 },
      { at: 10, kind: 'charged', detail: '500 quota', detail_code: 'quota_charged', detail_params: { quota: 500 } },
      { at: 11, kind: 'submitted', status: 'queued', progress: 0 },
      { at: 20, kind: 'poll', detail: 'first poll', detail_code: 'first_poll', detail_params: {} },
      { at: 30, kind: 'progress', status: 'in_progress', progress: 50 },
      { at: 40, kind: 'poll', detail: 'last poll (3 in all)', detail_code: 'last_poll', detail_params: { count: 3 } },
      { at: 40, kind: 'status', status: 'failed', progress: 100, detail: 'generation failed' },
      { at: 40, kind: 'refunded', detail: '500 quota', detail_code: 'quota_refunded', detail_params: { quota: 500 } },
    ]);
  });

  it("hides a refused submit's hold and release from customers, shows them to admins", () => {
    expect(buildTimeline({ task: task(), events, ledger, webhooks: [] }, 'customer').some((entry) => entry.kind === 'charged')).toBe(false);
    const admin = buildTimeline({ task: task(), events, ledger, webhooks: [] }, 'admin');
    expect(admin).toContainEqual({
      at: 10,
      kind: 'charged',
      detail: '500 quota (held)',
      detail_code: 'quota_held',
      detail_params: { quota: 500 },
    });
    expect(admin).toContainEqual({ at: 10, kind: 'created', status: 'SUBMITTING', progress: 0 });
  });

  it('fills in from the columns what older tasks never recorded, and lists webhook attempts', () => {
    const timeline = buildTimeline(
      {
        task: task({ status: 'SUCCESS', pollCount: 1, lastPollAt: 20 * S }),
        archivedAt: 41 * S,
        events: [],
        ledger: [],
        webhooks: [{ type: 'video.completed', attempt: 1, state: 'failed', statusCode: 500, error: null, at: 42 * S }],
      },
      'customer',
    );
    expect(timeline).toEqual([
      { at: 10, kind: 'created' },
      { at: 11, kind: 'submitted', status: 'queued' },
      { at: 20, kind: 'poll', detail: 'first poll', detail_code: 'first_poll', detail_params: {} },
      { at: 40, kind: 'status', status: 'completed', progress: 100 },
      { at: 41, kind: 'archived', detail: 'archived', detail_code: 'archived', detail_params: {} },
      {
        at: 42,
        kind: 'webhook',
        status: 'failed',
        detail: 'video.completed attempt 1: HTTP 500',
        detail_code: 'webhook_attempt',
        detail_params: { type: 'video.completed', attempt: 1, outcome: 'HTTP 500' },
      },
    ]);
  });
  it('shows admins each submit attempt naming its channel, then the channel that took it; customers see neither', () => {
    const tried = [
      event('created', 10, { status: 'SUBMITTING', progress: 0 }),
      event('attempt', 11, { status: 'SUBMITTING', detail: 'channel #3 (primary) failed: transient: provider error (HTTP 500)' }),
      event('submitted', 11, { status: 'NOT_START', progress: 0, detail: 'channel #4 (backup)' }),
    ];
    const admin = buildTimeline(
      { task: task({ status: 'NOT_START', finishTime: null }), events: tried, ledger: [], webhooks: [] },
      'admin',
    );
    expect(admin.filter((entry) => entry.kind === 'attempt' || entry.kind === 'submitted')).toEqual([
      {
        at: 11,
        kind: 'attempt',
        status: 'SUBMITTING',
        detail: 'channel #3 (primary) failed: transient: provider error (HTTP 500)',
        detail_code: 'attempt_failed',
        detail_params: { channel_id: 3, channel: 'primary', reason: 'transient: provider error (HTTP 500)' },
      },
      {
        at: 11,
        kind: 'submitted',
        status: 'NOT_START',
        progress: 0,
        detail: 'channel #4 (backup)',
        detail_code: 'submitted_on',
        detail_params: { channel_id: 4, channel: 'backup' },
      },
    ]);
    const customer = buildTimeline(
      { task: task({ status: 'NOT_START', finishTime: null }), events: tried, ledger: [], webhooks: [] },
      'customer',
    );
    expect(customer.some((entry) => entry.kind === 'attempt')).toBe(false);
    expect(customer.find((entry) => entry.kind === 'submitted')).toEqual({ at: 11, kind: 'submitted', status: 'queued', progress: 0 });
  });
});
