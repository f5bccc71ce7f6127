// One task in a drawer: status and progress, the player with a download link, the facts, the
// charge and refund, the timeline, and every field of both API forms (flat /v1/videos and unified).
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { isActive, TaskStatus } from '../components/task-bits.js';
import { Icon } from '../components/icon.js';
import { Button, CopyButton, Dialog, ErrorNote, Progress, ShortId, Badge, fail, toast } from '../components/ui.js';
import { actionText, timelineDetail } from '../lib/detail-text.js';
import { failureText } from '../lib/failure-text.js';
import { dateTimeSeconds, duration, money, quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

/** `row` is the list's copy of the task (shown at once); the detail endpoint adds the rest. `base`: the API prefix. */
/** `normalize(task)`: for an API whose status is not the flat one (the admin's), maps it to the flat form. */
export function TaskDrawer({ taskId, row, onClose, base = '/console/api/tasks', extraFacts, normalize = (task) => task }) {
  const detail = useApi(`${base}/${encodeURIComponent(taskId)}`, {}, { poll: (d) => (d && isActive(normalize(d).status) ? 1500 : 0) });
  const task = normalize({ ...(row ?? {}), ...(detail.data ?? {}) });
  const reason = task.failure_reason ?? task.fail_reason;
  const hasVideo = task.has_video ?? task.status === 'completed';
  const content = `${base}/${encodeURIComponent(taskId)}/content`;
  const finished = task.finished_at ?? task.completed_at;
  const [confirmDialog, confirm] = useConfirm();
  // Shown only while the gateway says a cancel would be tried (not ended; its provider can cancel it, or has not accepted it yet).
  const cancel = async () => {
    if (!(await confirm(t('drawer.cancelQuestion'), t('drawer.cancel')))) return;
    try {
      await api(`${base}/${encodeURIComponent(taskId)}/cancel`, { method: 'POST' });
      toast(t('drawer.cancelled'));
    } catch (error) {
      fail(error);
    }
    detail.reload();
  };
  return html`<${Dialog} side title=${t('drawer.title')} onClose=${onClose}>
    ${confirmDialog}
    <div class="drawer-task" data-task-id=${taskId}>
      <div class="drawer-id"><${ShortId} id=${taskId} head=${14} tail=${6} /></div>
      <${ErrorNote} error=${detail.error} onRetry=${detail.reload} />
      ${
        task.status
          ? html`<div class="drawer-status">
        <${TaskStatus} task=${{ ...task, fail_reason: null, failure_reason: null }} />
        <${Progress} value=${task.progress} status=${task.status} label=${t('tasks.progressOf', { id: taskId })} />
        ${task.cancellable ? html`<${Button} kind="danger" small icon="ban" class="drawer-cancel" onClick=${cancel}>${t('drawer.cancel')}<//>` : null}
      </div>`
          : null
      }
      ${reason ? html`<div class="notice danger"><${Icon} name="circle-alert" /><div><strong>${t('drawer.failureReason')}</strong> ${failureText(reason)}</div></div>` : null}
      ${task.video_expired ? html`<div class="notice info" data-video-expired><${Icon} name="clock" /><div>${t('drawer.videoExpired')}</div></div>` : null}
      ${
        hasVideo
          ? html`<div class="player">
        <video controls playsinline preload="metadata" src=${content} aria-label=${t('drawer.videoOf', { id: taskId })}></video>
        <div class="actions"><a class="button secondary small" href=${content} download=${`${taskId}.mp4`}><${Icon} name="download" size=${16} />${t('drawer.download')}</a>${task.size ? html`<span class="muted">${task.size}</span>` : null}</div>
      </div>`
          : null
      }
      <section aria-labelledby="drawer-facts"><h3 id="drawer-facts">${t('drawer.facts')}</h3>
        <dl class="facts">
          <${Fact} label=${t('tasks.col.model')}><code>${task.model ?? '—'}</code><//>
          ${task.action ? html`<${Fact} label=${t('drawer.action')}>${actionText(task.action)}<//>` : null}
          <${Fact} label=${t('tasks.col.created')}>${dateTimeSeconds(task.created_at)}<//>
          <${Fact} label=${t('drawer.finished')}>${dateTimeSeconds(finished)}<//>
          <${Fact} label=${t('drawer.took')}>${finished && task.created_at ? duration(finished - task.created_at) : '—'}<//>
          ${task.size ? html`<${Fact} label=${t('drawer.size')}>${task.size}<//>` : null}
          ${extraFacts?.(task)}
          ${task.prompt ? html`<${Fact} label=${t('drawer.prompt')} wide>${task.prompt}<//>` : null}
        </dl>
      </section>
      <section aria-labelledby="drawer-money"><h3 id="drawer-money">${t('drawer.money')}</h3>
        <dl class="facts">
          <${Fact} label=${t('drawer.charge')}>${task.charge ? html`${quotaWithMoney(task.charge.quota)} <span class="muted">${t('drawer.logId', { id: task.charge.log_id })}</span>` : task.quota !== undefined ? quotaWithMoney(task.quota) : '—'}<//>
          <${Fact} label=${t('drawer.refund')}>${task.refund ? html`<span class="amount-pos">${quotaWithMoney(task.refund.quota)}</span> <span class="muted">${t('drawer.logId', { id: task.refund.log_id })}</span>` : detail.data && 'refund' in detail.data ? t('drawer.noRefund') : task.status === 'failed' ? t('tasks.refunded') : '—'}<//>
        </dl>
      </section>
      ${task.timeline ? html`<section aria-labelledby="drawer-timeline"><h3 id="drawer-timeline">${t('drawer.timeline')}</h3><${Timeline} events=${task.timeline} polls=${task.polls} /></section>` : null}
      ${
        task.flat || task.unified
          ? html`<section aria-labelledby="drawer-forms"><h3 id="drawer-forms">${t('drawer.forms')}</h3>
        ${task.flat ? html`<${ApiForm} title="GET /v1/videos/{id}" value=${task.flat} open />` : null}
        ${task.unified ? html`<${ApiForm} title="GET /v1/video/generations/{id}" value=${task.unified} />` : null}
      </section>`
          : null
      }
    </div>
  <//>`;
}

function quotaWithMoney(value) {
  const m = money(value);
  return m ? `${quota(value)} (≈ ${m})` : quota(value);
}

function Fact({ label, children, wide }) {
  return html`<div class=${wide ? 'wide' : undefined}><dt>${label}</dt><dd>${children}</dd></div>`;
}

/** The admin's timeline names the gateway's own statuses; badges speak the flat ones. */
const STATUS_ALIAS = { success: 'completed', failure: 'failed', not_start: 'queued', submitting: 'queued' };
const flat = (status) => {
  const lower = String(status).toLowerCase();
  return STATUS_ALIAS[lower] ?? lower;
};

const KIND_ICON = {
  created: 'plus',
  submitted: 'send',
  status: 'info',
  progress: 'loader',
  poll: 'refresh-cw',
  charged: 'wallet',
  refunded: 'rotate-ccw',
  archived: 'film',
  webhook: 'webhook',
};

function Timeline({ events, polls }) {
  const first = events[0]?.at;
  return html`<ol class="timeline">
    ${events.map(
      (e) => html`<li class=${`tl-${e.kind}`}>
      <span class="tl-dot"><${Icon} name=${KIND_ICON[e.kind] ?? 'info'} size=${14} /></span>
      <div class="tl-body">
        <div class="tl-head"><strong>${t(`timeline.${e.kind}`)}</strong>${e.status ? html` <${Badge} status=${flat(e.status)} />` : null}${e.progress !== undefined && e.progress !== null ? html` <span class="muted">${e.progress}%</span>` : null}</div>
        ${e.detail ? html`<div class="muted tl-detail">${timelineDetail(e)}</div>` : null}
        <time class="muted small" datetime=${new Date(e.at * 1000).toISOString()}>${dateTimeSeconds(e.at)}${first && e.at > first ? ` · +${duration(e.at - first)}` : ''}</time>
      </div>
    </li>`,
    )}
    ${polls?.count ? html`<li class="tl-poll"><span class="tl-dot"><${Icon} name="refresh-cw" size=${14} /></span><div class="tl-body">${t('drawer.polls', { n: polls.count, first: dateTimeSeconds(polls.first_at), last: dateTimeSeconds(polls.last_at) })}</div></li>` : null}
  </ol>`;
}

/** Every field of one API form as path/value rows (nested objects flattened), with the raw JSON to copy. */
function ApiForm({ title, value, open = false }) {
  const rows = [];
  const walk = (v, path) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length)
      for (const [k, inner] of Object.entries(v)) walk(inner, path ? `${path}.${k}` : k);
    else rows.push([path, v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  };
  walk(value, '');
  return html`<details class="api-form" open=${open}>
    <summary><code>${title}</code><span class="muted"> · ${t('drawer.fields', { n: rows.length })}</span></summary>
    <div class="api-form-tools"><${CopyButton} value=${JSON.stringify(value, null, 2)} label=${t('drawer.copyJson')} withText kind="secondary" /></div>
    <table class="kv"><caption class="visually-hidden">${title}</caption><tbody>${rows.map(([k, v]) => html`<tr><th scope="row"><code>${k}</code></th><td><code>${v}</code></td></tr>`)}</tbody></table>
  </details>`;
}
