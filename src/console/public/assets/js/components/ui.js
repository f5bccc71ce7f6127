// Small shared components: buttons, badges, progress, copyable ids, fields, cards, pager, dialogs.
import { toast } from '../lib/toast.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { hasMessage, langStore, t } from '../lib/i18n.js';
import { num, shortId } from '../lib/format.js';
import { Icon } from './icon.js';

export { toast };

let counter = 0;
/** A stable id for label/aria wiring. */
export function useId(prefix = 'c') {
  const ref = useRef(null);
  ref.current ??= `${prefix}-${++counter}`;
  return ref.current;
}

/** kind: primary (default) | secondary | danger | ghost; icon: a lucide name; iconOnly keeps the label for screen readers. */
export function Button({ kind = 'primary', icon, iconOnly = false, small = false, children, label, class: extra = '', ...rest }) {
  const text = label ?? children;
  return html`<button type="button" class=${`btn ${kind} ${small ? 'small' : ''} ${iconOnly ? 'icon-only' : ''} ${extra}`} aria-label=${iconOnly ? text : rest['aria-label']} title=${iconOnly ? text : rest.title} ...${rest}>
    ${icon ? html`<${Icon} name=${icon} size=${small ? 16 : 18} />` : null}${iconOnly ? null : html`<span>${text}</span>`}
  </button>`;
}

export const STATUS_TONE = {
  queued: 'neutral',
  in_progress: 'info',
  completed: 'success',
  failed: 'danger',
  active: 'success',
  deprecated: 'warning',
  retired: 'neutral',
  enabled: 'success',
  revoked: 'danger',
  disabled: 'danger',
  processing: 'info',
  pending: 'info',
  approved: 'success',
  rejected: 'danger',
  delivered: 'success',
  succeeded: 'success',
  expired: 'danger',
  unused: 'info',
  redeemed: 'success',
  consume: 'neutral',
  refund: 'success',
  topup: 'success',
  adjust: 'info',
  hold: 'neutral',
  release: 'neutral',
};
const STATUS_ICON = {
  queued: 'clock',
  in_progress: 'loader',
  completed: 'circle-check',
  failed: 'circle-alert',
  processing: 'loader',
  pending: 'clock',
  active: 'circle-check',
  deprecated: 'hourglass',
  retired: 'archive',
  enabled: 'circle-check',
  expired: 'clock',
  delivered: 'circle-check',
  failed_delivery: 'circle-alert',
};

/** A coloured pill; `status` picks the tone and (through i18n "status.<status>") the text unless children are given. */
export function Badge({ status, tone, children, icon }) {
  const name = icon ?? STATUS_ICON[status];
  return html`<span class=${`badge tone-${tone ?? STATUS_TONE[status] ?? 'neutral'}`} data-status=${status}>
    ${name ? html`<${Icon} name=${name} size=${14} />` : null}${children ?? t(`status.${status}`)}
  </span>`;
}

/**
 * A task's progress: the bar stops where the task did. Completed is a full green bar, failed a red
 * bar at the point it failed (never a full blue one), queued an empty grey track.
 */
export function Progress({ value = 0, status, label }) {
  const pct = Math.max(0, Math.min(100, Number(value) || 0));
  const tone = status === 'failed' ? 'danger' : status === 'completed' ? 'success' : status === 'queued' ? 'neutral' : 'info';
  const shown = status === 'completed' ? 100 : pct;
  return html`<div class=${`progress tone-${tone}`}>
    <div class="progress-track" role="progressbar" aria-label=${label} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${shown} aria-valuetext=${status === 'failed' ? t('progress.failedAt', { pct: shown }) : `${shown}%`}>
      <div class=${`progress-fill ${status === 'in_progress' ? 'moving' : ''}`} style=${`width:${shown}%`}></div>
    </div>
    <span class="progress-pct">${shown}%</span>
  </div>`;
}

/** Copies `value`; shows a check for a moment. */
export function CopyButton({ value, label, small = true, kind = 'ghost', withText = false, onCopied }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    onCopied?.();
    setTimeout(() => setDone(false), 1500);
  };
  return html`<${Button} kind=${kind} small=${small} icon=${done ? 'check' : 'copy'} iconOnly=${!withText} onClick=${copy} label=${done ? t('common.copied') : (label ?? t('common.copy'))} />`;
}

/** A long id shown short (full id in the title and for screen readers) with a copy button. */
export function ShortId({ id, head, tail }) {
  if (!id) return '—';
  return html`<span class="short-id">
    <code title=${id}><span aria-hidden="true">${shortId(id, head, tail)}</span><span class="visually-hidden">${id}</span></code>
    <${CopyButton} value=${id} label=${t('common.copyId', { id })} />
  </span>`;
}

export function PageHeader({ title, intro, actions }) {
  return html`<header class="page-header">
    <div><h1 tabindex="-1">${title}</h1>${intro ? html`<p class="intro">${intro}</p>` : null}</div>
    ${actions ? html`<div class="page-actions">${actions}</div>` : null}
  </header>`;
}

export function Card({ title, actions, children, class: extra = '', id, ...rest }) {
  const headingId = useId('card');
  return html`<section class=${`panel ${extra}`} id=${id} aria-labelledby=${title ? headingId : undefined} ...${rest}>
    ${title || actions ? html`<div class="panel-head">${title ? html`<h2 id=${headingId}>${title}</h2>` : html`<span></span>`}${actions ? html`<div class="panel-actions">${actions}</div>` : null}</div>` : null}
    ${children}
  </section>`;
}

export function Stat({ label, value, sub, icon, tone, id }) {
  return html`<div class=${`stat ${tone ? `tone-${tone}` : ''}`} data-stat=${id}>
    <div class="stat-label">${icon ? html`<${Icon} name=${icon} size=${16} />` : null}${label}</div>
    <div class="value">${value}</div>
    ${sub ? html`<div class="stat-sub">${sub}</div>` : null}
  </div>`;
}

/** A labelled control. `as`: input (default) | select | textarea; options for selects: [[value, text]]. */
export function Field({ label, help, as = 'input', options = [], class: extra = '', error, ...control }) {
  const autoId = useId('f');
  const id = control.id ?? autoId;
  const helpId = help ? `${id}-help` : undefined;
  const props = { ...control, id, 'aria-describedby': helpId, 'aria-invalid': error ? 'true' : undefined };
  let input;
  if (as === 'select')
    input = html`<select ...${props}>${options.map(([value, text]) => html`<option value=${value}>${text}</option>`)}</select>`;
  else if (as === 'textarea') input = html`<textarea ...${props}></textarea>`;
  else input = html`<input type="text" ...${props} />`;
  return html`<div class=${`field ${extra}`}><label for=${id}>${label}</label>${input}${help ? html`<span class="help" id=${helpId}>${help}</span>` : null}</div>`;
}

/** A search box that writes through after a short pause (so the URL is not rewritten on every key). */
export function SearchField({ label, value, onSearch, placeholder }) {
  const [text, setText] = useState(value ?? '');
  const timer = useRef(null);
  useEffect(() => setText(value ?? ''), [value]);
  const id = useId('q');
  return html`<div class="field search-field"><label for=${id}>${label}</label>
    <div class="input-icon"><${Icon} name="search" size=${16} />
      <input id=${id} type="search" value=${text} placeholder=${placeholder} onInput=${(e) => {
        setText(e.target.value);
        clearTimeout(timer.current);
        const next = e.target.value.trim();
        timer.current = setTimeout(() => onSearch(next), 350);
      }} />
    </div></div>`;
}

export function Pager({ page, pageSize, total, onPage }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return html`<nav class="pager" aria-label=${t('pager.label')}>
    <${Button} kind="secondary" small icon="chevron-left" disabled=${page <= 1} onClick=${() => onPage(page - 1)}>${t('pager.previous')}<//>
    <span>${t('pager.status', { page: num(page), pages: num(pages), total: num(total) })}</span>
    <${Button} kind="secondary" small icon="chevron-right" disabled=${page >= pages} onClick=${() => onPage(page + 1)}>${t('pager.next')}<//>
  </nav>`;
}

export function Empty({ icon = 'inbox', title, children }) {
  return html`<div class="empty-state"><${Icon} name=${icon} size=${28} /><p class="empty-title">${title}</p>${children ? html`<div class="muted">${children}</div>` : null}</div>`;
}

export function ErrorNote({ error, onRetry }) {
  if (!error) return null;
  return html`<div class="notice danger" role="alert"><${Icon} name="circle-alert" /><span>${errorText(error)}</span>${onRetry ? html`<${Button} kind="secondary" small icon="refresh-cw" onClick=${onRetry}>${t('common.retry')}<//>` : null}</div>`;
}

export const Loading = () => html`<p class="loading" role="status">${t('common.loading')}</p>`;

/**
 * A native modal <dialog> (focus stays inside, Escape closes). `side` makes it a drawer from the right.
 * The parent unmounts it in onClose.
 */
export function Dialog({ title, onClose, children, side = false, wide = false, footer }) {
  const ref = useRef(null);
  const titleId = useId('dlg');
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog.open) dialog.showModal();
    const closed = () => onClose();
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, []);
  const backdropClick = (event) => {
    if (event.target === ref.current) ref.current.close();
  };
  return html`<dialog ref=${ref} class=${`modal ${side ? 'drawer' : ''} ${wide ? 'wide' : ''}`} aria-labelledby=${titleId} onClick=${backdropClick}>
    <div class="modal-head"><h2 id=${titleId}>${title}</h2><${Button} kind="ghost" iconOnly icon="x" onClick=${() => ref.current.close()}>${t('common.close')}<//></div>
    <div class="modal-body">${children}</div>
    ${footer ? html`<div class="modal-foot">${footer}</div>` : null}
  </dialog>`;
}

/** Shows an API error as a toast; returns false. */
/**
 * What went wrong, in the page's language: the API's own words (English) in English, and in another language
 * the rule its field broke (`constraint`) worded there, where the console has words for it.
 */
export function errorText(error) {
  const key = error?.constraint ? `constraint.${error.constraint}` : null;
  if (key && langStore.get() !== 'en' && hasMessage(key)) return t(key);
  return error?.message ?? String(error);
}

export function fail(error) {
  toast(errorText(error), 'error');
  return false;
}
