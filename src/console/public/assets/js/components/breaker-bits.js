// A channel's breaker (the channels page, the dashboard): closed, half-open (one submit at a time tries
// the channel) or open (passed over until retry_at), with its faults in a row.
import { dateTimeSeconds, num } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { Badge } from './ui.js';

const LOOK = {
  closed: { tone: 'success', icon: 'circle-check' },
  half_open: { tone: 'warning', icon: 'clock' },
  open: { tone: 'danger', icon: 'ban' },
};

export function BreakerBadge({ breaker }) {
  const look = LOOK[breaker.state] ?? LOOK.closed;
  return html`<${Badge} status=${`breaker-${breaker.state}`} tone=${look.tone} icon=${look.icon}>${t(`breaker.${breaker.state}`)}<//>`;
}

/** The badge, until when it stays open, and the faults in a row. */
export function BreakerCell({ breaker }) {
  return html`<span class="breaker-cell" data-breaker=${breaker.state}>
    <${BreakerBadge} breaker=${breaker} />
    ${breaker.state === 'open' ? html`<div class="muted small">${t('breaker.until', { at: dateTimeSeconds(breaker.retry_at) })}</div>` : null}
    ${breaker.failures ? html`<div class="muted small">${t('breaker.failures', { n: num(breaker.failures) })}</div>` : null}
  </span>`;
}
