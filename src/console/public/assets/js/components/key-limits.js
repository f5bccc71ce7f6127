// An API key's own limits: the form fields (create and edit share them) and how a key's use against
// them is shown in a list. Empty fields lift a limit; the API takes null for that.
import { Field } from './ui.js';
import { compactDateTime, dateTime, quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';

const PERIODS = ['1d', '7d', '30d'];

/** `YYYY-MM-DDTHH:MM` in local time, as <input type="datetime-local"> wants it. */
function localInput(unix) {
  if (!unix) return '';
  const d = new Date(unix * 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The limit fields, prefilled from `current` when editing; `rpmHelp` words the rpm hint for an admin. */
export function KeyLimitFields({ current = null, rpmHelp = t('keys.rpmHelp') }) {
  const value = (v) => (v === null || v === undefined ? '' : String(v));
  return html`<div class="grid-form">
    <${Field} label=${t('keys.quotaLimit')} name="quota_limit" type="number" min="0" step="1" value=${value(current?.quota_limit)} help=${t('keys.quotaLimitHelp')} />
    <${Field} label=${t('keys.budget')} name="budget" type="number" min="0" step="1" value=${value(current?.budget)} help=${t('keys.budgetHelp')} />
    <${Field} as="select" label=${t('keys.budgetPeriod')} name="budget_period" value=${current?.budget_period ?? '1d'} options=${PERIODS.map((p) => [p, t(`keys.period.${p}`)])} />
    <${Field} label=${t('keys.expiresAt')} name="expires_at" type="datetime-local" value=${localInput(current?.expires_at)} help=${t('keys.expiresHelp')} />
    <${Field} label=${t('keys.rpm')} name="rpm" type="number" min="0" step="1" value=${value(current?.rpm ?? '')} help=${rpmHelp} />
    <${Field} as="textarea" label=${t('keys.allowedIps')} name="allowed_ips" rows="2" value=${(current?.allowed_ips ?? []).join('\n')} placeholder="203.0.113.0/24" help=${t('keys.allowedIpsHelp')} />
  </div>`;
}

/** The form's limit values as the API takes them (null lifts a limit). */
export function keyLimitValues(values) {
  const integer = (text) => (text === '' || text === undefined ? null : Number(text));
  const budget = integer(values.budget);
  const ips = (values.allowed_ips ?? '').split(/[\s,]+/).filter(Boolean);
  return {
    quota_limit: integer(values.quota_limit),
    budget,
    ...(budget === null ? {} : { budget_period: values.budget_period || '1d' }),
    expires_at: values.expires_at ? Math.floor(new Date(values.expires_at).getTime() / 1000) : null,
    allowed_ips: ips.length ? ips : null,
    rpm: integer(values.rpm) ?? 0,
  };
}

/** What a key has used of its limits, and when its budget starts again. */
export function KeyLimitsSummary({ apiKey: k }) {
  const lines = [];
  lines.push(
    k.quota_limit === null
      ? t('keys.usedNoLimit', { used: quota(k.used_quota) })
      : t('keys.usedOfLimit', {
          used: quota(k.used_quota),
          limit: quota(k.quota_limit),
          left: quota(Math.max(0, k.quota_limit - k.used_quota)),
        }),
  );
  if (k.budget !== null)
    lines.push(
      t('keys.budgetUse', {
        used: quota(k.budget_used),
        budget: quota(k.budget),
        period: t(`keys.period.${k.budget_period}`),
        left: quota(Math.max(0, k.budget - k.budget_used)),
        at: compactDateTime(k.budget_resets_at),
      }),
    );
  if (k.expires_at !== null) lines.push(t('keys.expiresOn', { at: compactDateTime(k.expires_at) }));
  if (k.allowed_ips?.length) lines.push(t('keys.fromIps', { ips: k.allowed_ips.join(', ') }));
  if (k.rpm) lines.push(t('keys.rpmShort', { rpm: k.rpm }));
  return html`<ul class="key-limits plain">${lines.map((line) => html`<li>${line}</li>`)}</ul>
    <span class="muted" title=${k.last_used_at ? dateTime(k.last_used_at) : ''}>${k.last_used_at ? t('keys.lastUsed', { at: compactDateTime(k.last_used_at) }) : t('keys.neverUsed')}</span>`;
}
