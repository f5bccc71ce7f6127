// Customer: the models on offer to the account's group with what they make and the group's prices
// (GET /console/api/models/prices, what GET /v1/videos/models answers a key without an allowlist).
import { DataTable } from '../components/data-table.js';
import { usd } from '../components/usage-bits.js';
import { Badge, Card, ErrorNote, PageHeader } from '../components/ui.js';
import { durationsText, modeLabel, priceText, sortedPrices } from '../lib/catalog-format.js';
import { dateTime, quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

/** "720p: 1,000 / s (US$0.10)", with the audio price beside it where the model has sound. */
function priceLine(price) {
  const audio = price.audio_quota !== undefined ? ` · ${t('catalog.withAudio', { price: quota(price.audio_quota) })}` : '';
  return `${priceText(price, price.quota)} (${usd(price.usd)})${audio}`;
}

export function Models() {
  const models = useApi('/console/api/models/prices');
  const columns = [
    {
      key: 'id',
      label: t('catalog.col.model'),
      card: 'title',
      render: (m) =>
        html`<div class="model-name"><strong>${m.label ?? m.id}</strong>${m.label ? html` <code class="muted small">${m.id}</code>` : null}</div>${
          m.status === 'deprecated'
            ? html`<div><${Badge} status="deprecated">${m.sunset_at ? t('catalog.until', { at: dateTime(m.sunset_at) }) : t('status.deprecated')}<//>${
                m.replacement ? html` <span class="muted small">${t('catalog.replacement', { id: m.replacement })}</span>` : null
              }</div>`
            : null
        }`,
    },
    { key: 'modes', label: t('catalog.col.modes'), render: (m) => m.modes.map(modeLabel).join(', ') },
    {
      key: 'durations',
      label: t('catalog.col.lengths'),
      render: (m) =>
        html`${durationsText(m.durations)}${m.audio !== 'none' ? html`<div class="muted small">${t(`catalog.audio.${m.audio}`)}</div>` : null}`,
    },
    {
      key: 'prices',
      label: t('catalog.col.prices'),
      render: (m) => html`<ul class="plain-list">${sortedPrices(m.prices).map((p) => html`<li>${priceLine(p)}</li>`)}</ul>`,
    },
  ];
  return html`<div class="models-page">
    <${PageHeader} title=${t('catalog.title')} intro=${t('catalog.intro')} />
    <${ErrorNote} error=${models.error} onRetry=${models.reload} />
    ${
      models.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('catalog.title')} columns=${columns} rows=${models.data.data} rowKey=${(m) => m.id} rowProps=${(m) => ({ 'data-model-id': m.id })} empty=${t('catalog.none')} emptyIcon="boxes" />
    <//>`
        : null
    }
  </div>`;
}
