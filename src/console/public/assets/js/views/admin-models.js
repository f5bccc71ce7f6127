// Admin: the model catalog (GET /api/admin/models) — what each model can do, what it costs, which
// platforms serve it (its routes) and where it is in its life (active, deprecated with a sunset, retired).
// Add and edit models (admin-model-form.js), deprecate, retire, reactivate, delete a custom one, export
// the catalog as a file and import one after seeing what it would change (admin-model-import.js).
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { DataTable } from '../components/data-table.js';
import { FormError, KeptField, useSubmit } from '../components/form.js';
import { Badge, Button, Card, Dialog, ErrorNote, Field, Loading, PageHeader, SearchField, fail, toast } from '../components/ui.js';
import { durationsText, fromLocalInput, modeLabel, MODEL_STATUSES, priceText, sortedPrices, toLocalInput } from '../lib/catalog-format.js';
import { dateTime, num } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t, useLang } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';
import { ModelForm } from './admin-model-form.js';
import { ModelImport } from './admin-model-import.js';

/** How many prices a row shows before "+ n more". */
const PRICES_SHOWN = 3;

/** Whether a catalog entry's id, name or a route's upstream model contains the words searched (any case). */
function matchesSearch(entry, q) {
  const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [entry.id, entry.label ?? '', ...entry.routes.map((r) => JSON.stringify(r.upstream_model ?? ''))].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

/** A registry text ({en, 'zh-CN'}) in the console's language, English when it has none. */
const localized = (text, lang) => text?.[lang] ?? text?.en ?? '';

export function AdminModels() {
  const [query, setQuery] = useUrlState({ platform: '', status: '', q: '' });
  const models = useApi('/api/admin/models', { platform: query.platform, status: query.status });
  const platforms = useApi('/api/admin/platforms');
  const lang = useLang();
  const platformList = platforms.data?.data ?? [];
  const platformLabel = (name) => localized(platformList.find((p) => p.platform === name)?.label, lang) || name;
  // null | 'new' | an entry (edit) | { lifecycle: entry, to: 'deprecated' | 'retired' } | 'import'
  const [open, setOpen] = useState(null);
  const [confirmDialog, confirm] = useConfirm();
  // The search is this page's own (the catalog is read whole): a model's id, name or any route's upstream model.
  const rows = (models.data?.data ?? []).filter((m) => matchesSearch(m, query.q));
  const filtered = query.platform || query.status || query.q;

  const patch = async (entry, body, message) => {
    try {
      await api(`/api/admin/models/${encodeURIComponent(entry.id)}`, { method: 'PATCH', body });
      toast(message);
      models.reload();
    } catch (error) {
      fail(error);
    }
  };
  const reactivate = (entry) =>
    patch(entry, { status: 'active', sunset_at: null, replacement: null }, t('models.reactivated', { id: entry.id }));
  const remove = async (entry) => {
    if (!(await confirm(t('models.deleteQuestion', { id: entry.id }), t('models.delete')))) return;
    try {
      await api(`/api/admin/models/${encodeURIComponent(entry.id)}`, { method: 'DELETE' });
      toast(t('models.deleted', { id: entry.id }));
      models.reload();
    } catch (error) {
      // 409: builtin, or tasks were made with it: the answer says to retire it instead.
      fail(error);
    }
  };
  const exportCatalog = async () => {
    try {
      const file = await api('/api/admin/models/export');
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `model-catalog-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      toast(t('models.exported', { n: file.models.length }));
    } catch (error) {
      fail(error);
    }
  };

  const columns = [
    {
      key: 'model',
      label: t('models.col.model'),
      card: 'title',
      class: 'col-model',
      render: (m) =>
        html`<div class="model-cell"><code class="model-id">${m.id}</code>${m.label ? html`<div class="muted small">${m.label}</div>` : null}<div class="model-source"><${SourceBadge} entry=${m} /></div></div>`,
    },
    {
      key: 'status',
      label: t('models.col.status'),
      card: 'badge',
      render: (m) =>
        html`<${Badge} status=${m.status} />${m.sunset_at ? html`<div class="muted small nowrap" data-fact="sunset">${t('models.sunsetOn', { at: dateTime(m.sunset_at) })}</div>` : null}${m.replacement ? html`<div class="muted small">${t('models.useInstead', { id: m.replacement })}</div>` : null}`,
    },
    {
      key: 'platforms',
      label: t('models.col.platforms'),
      render: (m) =>
        html`<span class="chips">${m.routes.map((r) => html`<span class="chip" title=${typeof r.upstream_model === 'string' ? r.upstream_model : JSON.stringify(r.upstream_model)}>${platformLabel(r.platform)}</span>`)}</span>`,
    },
    {
      key: 'modes',
      label: t('models.col.modes'),
      wide: true,
      render: (m) =>
        html`<span class="chips mode-chips">${m.modes.map((mode) => html`<span class="chip">${modeLabel(mode)}</span>`)}</span>`,
    },
    {
      key: 'durations',
      label: t('models.col.durations'),
      class: 'nowrap',
      render: (m) =>
        html`${durationsText(m.durations)}<div class="muted small">${t('models.defaultSeconds', { n: num(m.default_duration) })}</div>`,
    },
    {
      key: 'prices',
      label: t('models.col.prices'),
      wide: true,
      render: (m) => html`<${PriceSummary} prices=${m.prices} />`,
    },
    {
      key: 'actions',
      label: t('models.col.actions'),
      card: 'actions',
      class: 'col-model-actions',
      render: (m) => html`<div class="actions model-actions">
        <${Button} small kind="secondary" icon="pencil" aria-label=${t('models.editOf', { id: m.id })} onClick=${() => setOpen(m)}>${t('models.edit')}<//>
        ${m.status === 'active' ? html`<${Button} small kind="secondary" icon="hourglass" aria-label=${t('models.deprecateOf', { id: m.id })} onClick=${() => setOpen({ lifecycle: m, to: 'deprecated' })}>${t('models.deprecate')}<//>` : html`<${Button} small kind="secondary" icon="undo-2" aria-label=${t('models.reactivateOf', { id: m.id })} onClick=${() => reactivate(m)}>${t('models.reactivate')}<//>`}
        ${m.status !== 'retired' ? html`<${Button} small kind="danger" icon="archive" aria-label=${t('models.retireOf', { id: m.id })} onClick=${() => setOpen({ lifecycle: m, to: 'retired' })}>${t('models.retire')}<//>` : null}
        ${m.source === 'custom' ? html`<${Button} small kind="danger" icon="trash-2" aria-label=${t('models.deleteOf', { id: m.id })} onClick=${() => remove(m)}>${t('models.delete')}<//>` : null}
      </div>`,
    },
  ];

  return html`<div class="admin-models">
    <${PageHeader} title=${t('models.title')} intro=${t('models.intro')} actions=${html`
      <${Button} kind="secondary" icon="download" onClick=${exportCatalog}>${t('models.export')}<//>
      <${Button} kind="secondary" icon="upload" onClick=${() => setOpen('import')}>${t('models.import')}<//>
      <${Button} icon="plus" onClick=${() => setOpen('new')}>${t('models.new')}<//>`} />
    <${Card} class="filters">
      <form class="toolbar" id="model-filters" aria-label=${t('models.filters')} onSubmit=${(e) => e.preventDefault()}>
        <${SearchField} label=${t('models.search')} placeholder=${t('models.searchPlaceholder')} value=${query.q} onSearch=${(q) => setQuery({ q })} />
        <${Field} as="select" label=${t('models.platform')} name="platform" value=${query.platform} onChange=${(e) => setQuery({ platform: e.target.value })}
          options=${[['', t('models.allPlatforms')], ...platformList.map((p) => [p.platform, localized(p.label, lang)]), ...(query.platform && !platformList.some((p) => p.platform === query.platform) ? [[query.platform, query.platform]] : [])]} />
        <${Field} as="select" label=${t('models.col.status')} name="status" value=${query.status} onChange=${(e) => setQuery({ status: e.target.value })}
          options=${[['', t('models.allStatuses')], ...MODEL_STATUSES.map((s) => [s, t(`status.${s}`)])]} />
        ${models.data ? html`<span class="muted small model-count" aria-live="polite">${t('models.count', { n: rows.length })}</span>` : null}
      </form>
    <//>
    <${ErrorNote} error=${models.error ?? platforms.error} onRetry=${() => {
      models.reload();
      platforms.reload();
    }} />
    ${
      models.data
        ? html`<${Card} title=${t('models.all')} class="flush list-card">
      <${DataTable} caption=${t('models.all')} columns=${columns} rows=${rows} rowKey=${(m) => m.id}
        rowProps=${(m) => ({ 'data-model-id': m.id, 'data-status': m.status })}
        empty=${filtered ? t('models.noMatch') : t('models.none')} emptyIcon="boxes" />
    <//>`
        : models.loading
          ? html`<${Loading} />`
          : null
    }
    ${
      open && platforms.data && (open === 'new' || open.id)
        ? html`<${ModelForm} key=${open === 'new' ? 'new' : open.id} entry=${open === 'new' ? null : open} platforms=${platformList} lang=${lang}
        onClose=${() => setOpen(null)} onSaved=${models.reload} />`
        : null
    }
    ${open?.lifecycle ? html`<${Lifecycle} key=${open.to} entry=${open.lifecycle} to=${open.to} onClose=${() => setOpen(null)} onSaved=${models.reload} />` : null}
    ${open === 'import' ? html`<${ModelImport} onClose=${() => setOpen(null)} onApplied=${models.reload} />` : null}
    ${confirmDialog}
  </div>`;
}

/** Built-in (as the release ships it), built-in and changed here (later releases keep it), or added here. */
function SourceBadge({ entry }) {
  if (entry.source === 'custom') return html`<${Badge} tone="info" icon="user">${t('models.source.custom')}<//>`;
  if (entry.source === 'feed')
    return html`<${Badge} tone=${entry.modified ? 'warning' : 'neutral'} icon=${entry.modified ? 'pencil' : 'package'}>${t(entry.modified ? 'models.source.feedModified' : 'models.source.feed')}<//>`;
  if (entry.modified) return html`<${Badge} tone="warning" icon="pencil">${t('models.source.modified')}<//>`;
  return html`<${Badge} tone="neutral" icon="package">${t('models.source.builtin')}<//>`;
}

function PriceSummary({ prices }) {
  if (!prices.length) return html`<span class="muted">${t('models.noPrices')}</span>`;
  const sorted = sortedPrices(prices);
  const shown = sorted.slice(0, PRICES_SHOWN);
  const more = sorted.length - shown.length;
  return html`<ul class="price-lines" title=${sorted.map(priceText).join('\n')}>
    ${shown.map((p) => html`<li>${priceText(p)}</li>`)}
    ${more > 0 ? html`<li class="muted">${t('models.morePrices', { n: more })}</li>` : null}
  </ul>`;
}

/**
 * Deprecate or retire, asking for a replacement among the active models. Deprecated, the model keeps working
 * (with Deprecation and Sunset headers) until its sunset; retired, it answers 410 at once, naming the replacement.
 */
function Lifecycle({ entry, to, onClose, onSaved }) {
  const all = useApi('/api/admin/models');
  const retiring = to === 'retired';
  const replacements = (all.data?.data ?? []).filter((m) => m.id !== entry.id && m.status === 'active').map((m) => m.id);
  const { onSubmit, busy, error } = useSubmit(
    async (values) => {
      const sunset =
        entry.sunset_at && values.sunset_at === toLocalInput(entry.sunset_at) ? entry.sunset_at : fromLocalInput(values.sunset_at);
      await api(`/api/admin/models/${encodeURIComponent(entry.id)}`, {
        method: 'PATCH',
        body: { status: to, ...(retiring ? {} : { sunset_at: sunset }), replacement: values.replacement || null },
      });
      toast(t(retiring ? 'models.retired' : 'models.deprecated', { id: entry.id }));
      onSaved();
      onClose();
    },
    { inline: true },
  );
  return html`<${Dialog} title=${t(retiring ? 'models.retireOf' : 'models.deprecateOf', { id: entry.id })} onClose=${onClose}>
    <form class="stack" id=${retiring ? 'retire-form' : 'deprecate-form'} onSubmit=${onSubmit}>
      <p class="muted">${t(retiring ? 'models.retireQuestion' : 'models.deprecateIntro', { id: entry.id })}</p>
      ${retiring ? null : html`<${KeptField} label=${t('models.sunset')} name="sunset_at" type="datetime-local" value=${toLocalInput(entry.sunset_at)} help=${t('models.sunsetHelp')} />`}
      <${KeptField} as="select" label=${t('models.replacement')} name="replacement" value=${replacements.includes(entry.replacement) ? entry.replacement : ''}
        options=${[['', t('models.noReplacement')], ...replacements.map((id) => [id, id])]} help=${t('models.replacementHelp')} />
      <${FormError} error=${error} />
      <div class="actions"><${Button} type="submit" kind=${retiring ? 'danger' : 'primary'} icon=${retiring ? 'archive' : 'hourglass'} disabled=${busy}>${t(retiring ? 'models.retire' : 'models.deprecate')}<//><${Button} kind="secondary" onClick=${onClose}>${t('common.cancel')}<//></div>
    </form>
  <//>`;
}
