// Pieces of a task shared by the task list and its drawer (and, later, the admin's task pages).
import { html } from '../lib/html.js';
import { failureText } from '../lib/failure-text.js';
import { t } from '../lib/i18n.js';
import { Icon } from './icon.js';
import { Badge, Progress } from './ui.js';

export const isActive = (status) => status === 'queued' || status === 'in_progress';
export const TASK_STATUSES = ['queued', 'in_progress', 'completed', 'failed'];

/** The poster frame once archived; otherwise a placeholder saying what state the task is in. */
export function Thumb({ task, src }) {
  if (task.has_thumbnail || task.thumbnail) {
    return html`<img class="thumb" src=${src ?? `/console/api/tasks/${encodeURIComponent(task.task_id)}/thumbnail`} alt=${t('tasks.thumbAlt', { id: task.task_id })} width="88" height="50" loading="lazy" decoding="async" />`;
  }
  const icon = task.status === 'failed' ? 'circle-x' : task.status === 'completed' ? 'film' : isActive(task.status) ? 'clock' : 'image';
  return html`<div class="thumb-placeholder" aria-hidden="true"><${Icon} name=${icon} size=${20} /></div>`;
}

/** Status badge with the failure reason under it. */
export function TaskStatus({ task }) {
  const reason = failureText(task.fail_reason ?? task.failure_reason);
  return html`<div class="task-status"><${Badge} status=${task.status} />${reason ? html`<div class="fail-reason" title=${reason}>${reason}</div>` : null}</div>`;
}

/** The task tables' progress column (the customer's and the admin's), in the language of the render. */
export function progressColumn() {
  return {
    key: 'progress',
    label: t('tasks.col.progress'),
    card: 'meta',
    wide: true,
    class: 'col-progress',
    render: (task) =>
      html`<${Progress} value=${task.progress} status=${task.status} label=${t('tasks.progressOf', { id: task.task_id })} />`,
  };
}
