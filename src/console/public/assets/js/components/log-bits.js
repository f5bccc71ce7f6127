// Pieces the customer's and the admin's ledger pages share: a total, and what an entry is about.
import { ShortId } from './ui.js';
import { failureText } from '../lib/failure-text.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';

export function LogTotal({ id, label, value }) {
  return html`<div data-total=${id}><span class="label">${label}</span><strong>${value}</strong></div>`;
}

/**
 * What an entry is about: a refund names its task and why; an entry for which `namesTask(log)`
 * holds names its task (the customer's charges; every entry with a task for admins).
 */
export function describeLog(log, namesTask) {
  if (log.type === 'refund' && log.task_id) {
    const reason = log.reason ?? log.detail?.replace(/^refund: task \S+ /, '') ?? '';
    return html`<div class="log-detail"><span>${t('logs.refundFor')} </span><${ShortId} id=${log.task_id} />${reason ? html`<div class="refund-reason">${t('logs.reason', { reason: failureText(reason) })}</div>` : null}</div>`;
  }
  if (log.task_id && namesTask(log)) return html`<div class="log-detail"><span>${t('logs.taskLabel')} </span><${ShortId} id=${log.task_id} />${log.detail ? html`<div class="muted small">${log.detail}</div>` : null}</div>`;
  return log.detail ?? '';
}
