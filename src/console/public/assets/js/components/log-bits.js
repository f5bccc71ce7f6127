// Pieces the customer's and the admin's ledger pages share: the totals, and what an entry is about.
import { Badge, ShortId } from './ui.js';
import { ledgerDetail } from '../lib/detail-text.js';
import { failureText } from '../lib/failure-text.js';
import { compactDateTime, dateTime, money, quota, signed } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';

function LogTotal({ id, label, value }) {
  return html`<div data-total=${id}><span class="label">${label}</span><strong>${value}</strong></div>`;
}

/** The filter's totals per type, their net and the entry count. Holds and releases only where the API counts them (the admin's). */
export function LogTotals({ totals }) {
  const net = totals.consume + totals.refund + totals.topup + totals.adjust + (totals.hold ?? 0) + (totals.release ?? 0);
  return html`<div class="totals" role="group" aria-label=${t('logs.totals')}>
    <${LogTotal} id="consume" label=${t('logs.total.consume')} value=${quota(Math.abs(totals.consume))} />
    <${LogTotal} id="refund" label=${t('logs.total.refund')} value=${quota(totals.refund)} />
    <${LogTotal} id="topup" label=${t('logs.total.topup')} value=${quota(totals.topup)} />
    <${LogTotal} id="adjust" label=${t('logs.total.adjust')} value=${signed(totals.adjust)} />
    ${totals.hold === undefined ? null : html`<${LogTotal} id="hold" label=${t('alogs.total.hold')} value=${signed(totals.hold)} />`}
    ${totals.release === undefined ? null : html`<${LogTotal} id="release" label=${t('alogs.total.release')} value=${quota(totals.release)} />`}
    <${LogTotal} id="net" label=${t('logs.total.net')} value=${signed(net)} />
    <${LogTotal} id="count" label=${t('logs.total.count')} value=${String(totals.count)} />
  </div>`;
}

/**
 * What an entry is about: a refund names its task and why; an entry for which `namesTask(log)`
 * holds names its task (the customer's charges; every entry with a task for admins).
 */
export function describeLog(log, namesTask) {
  if (log.type === 'refund' && log.task_id) {
    // The admin's rows carry only the ledger detail, `refund: task <id> failed: <reason>`.
    const reason = log.reason ?? log.detail?.replace(/^refund: task \S+ (failed: )?/, '') ?? '';
    return html`<div class="log-detail"><span>${t('logs.refundFor')} </span><${ShortId} id=${log.task_id} />${reason ? html`<div class="refund-reason">${t('logs.reason', { reason: failureText(reason) })}</div>` : null}</div>`;
  }
  if (log.task_id && namesTask(log))
    return html`<div class="log-detail"><span>${t('logs.taskLabel')} </span><${ShortId} id=${log.task_id} />${log.detail ? html`<div class="muted small">${ledgerDetail(log)}</div>` : null}</div>`;
  return ledgerDetail(log);
}

/**
 * The ledger table's columns, the customer's and the admin's: `namesTask` as for describeLog, and
 * `userColumn` (the admin's) after the amount.
 */
export function ledgerColumns(namesTask, userColumn = null) {
  return [
    { key: 'type', label: t('logs.col.type'), card: 'badge', render: (l) => html`<${Badge} status=${l.type} />` },
    {
      key: 'amount',
      label: t('logs.col.amount'),
      num: true,
      card: 'title',
      render: (l) =>
        html`<span class=${l.quota < 0 ? 'amount-neg' : 'amount-pos'}>${signed(l.quota)}</span>${money(l.quota) ? html`<div class="muted small">${money(l.quota)}</div>` : null}`,
    },
    ...(userColumn ? [userColumn] : []),
    {
      key: 'time',
      label: t('logs.col.time'),
      class: 'nowrap',
      render: (l) => html`<span title=${dateTime(l.created_at)}>${compactDateTime(l.created_at)}</span>`,
    },
    { key: 'balance', label: t('logs.col.balanceAfter'), num: true, render: (l) => quota(l.balance_after) },
    { key: 'model', label: t('logs.col.model'), render: (l) => (l.model ? html`<code class="model">${l.model}</code>` : '—') },
    { key: 'details', label: t('logs.col.details'), wide: true, render: (log) => describeLog(log, namesTask) },
  ];
}
