// The ledger table and totals shared by the customer and admin logs pages.
import { h } from './dom.js';
import { CUSTOMER_LOG_TYPES, dateTime, logTypeLabel, quota, signed } from './format.js';
import { badge, table } from './ui.js';

export const ADMIN_LOG_TYPE_OPTIONS = [['', 'All types'], ...Object.entries(logTypeLabel)];
export const CUSTOMER_LOG_TYPE_OPTIONS = [['', 'All types'], ...CUSTOMER_LOG_TYPES.map((type) => [type, logTypeLabel[type]])];

export function totalsBar(totals) {
  const item = (label, value, key) => h('div', { 'data-total': key }, h('span', { class: 'label' }, label), h('strong', {}, value));
  return h(
    'div',
    { class: 'totals', role: 'group', 'aria-label': 'Totals for this filter' },
    // Gross: what tasks were charged, before their refunds (the Overview's "used" is net of refunds).
    item('Consumed (gross, before refunds)', quota(Math.abs(totals.consume)), 'consume'),
    item('Refunded', quota(totals.refund), 'refund'),
    item('Topped up', quota(totals.topup), 'topup'),
    item('Adjusted', signed(totals.adjust), 'adjust'),
    // Only the admin's totals have holds (submits in flight) and their releases.
    totals.hold === undefined ? null : item('Held', signed(totals.hold), 'hold'),
    totals.release === undefined ? null : item('Released', quota(totals.release), 'release'),
    item('Net change', signed(totals.consume + totals.refund + totals.topup + totals.adjust + (totals.hold ?? 0) + (totals.release ?? 0)), 'net'),
    item('Entries', String(totals.count), 'count'),
  );
}

/** What a ledger row is about: a refund names its task and why. */
function describe(log) {
  if (log.type === 'refund' && log.task_id) {
    const reason = log.reason ?? log.detail?.replace(/^refund: task \S+ /, '') ?? '';
    return [h('span', {}, 'Refund for task '), h('code', {}, log.task_id), reason ? h('div', { class: 'refund-reason' }, `Reason: ${reason}`) : null];
  }
  if (log.type === 'consume' && log.task_id) return [h('span', {}, 'Task '), h('code', {}, log.task_id), log.detail ? h('div', { class: 'muted' }, log.detail) : null];
  return log.detail ?? '';
}

export function logTable(logs, { showUser = false } = {}) {
  const columns = [
    { label: 'Time', cell: (l) => dateTime(l.created_at) },
    showUser ? { label: 'User', cell: (l) => String(l.user_id) } : null,
    { label: 'Type', cell: (l) => badge(logTypeLabel[l.type] ?? l.type, l.type) },
    { label: 'Amount', num: true, cell: (l) => h('span', { class: l.quota < 0 ? 'amount-neg' : 'amount-pos' }, signed(l.quota)) },
    { label: 'Balance after', num: true, cell: (l) => quota(l.balance_after), class: 'hide-narrow' },
    { label: 'Model', cell: (l) => l.model ?? '—', class: 'hide-narrow' },
    { label: 'Details', cell: describe },
  ].filter(Boolean);
  return table('Ledger entries', columns, logs, { empty: 'No entries match.', rowAttrs: (l) => ({ 'data-log-type': l.type, 'data-task-id': l.task_id ?? null }) });
}
