// Admin: the price table grouped by model (resolutions in numeric order, 360p < 720p < 1080p), each
// price with its money equivalent, edited in place (PUT /api/admin/prices); new prices; group ratios.
// On a phone each model's group starts folded (but the first, or the one chosen), so the page stays short.
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { DataTable, useIsPhone } from '../components/data-table.js';
import { Icon } from '../components/icon.js';
import { useSubmit } from '../components/form.js';
import { Button, Card, ErrorNote, Field, Loading, PageHeader, fail, toast } from '../components/ui.js';
import { amount } from '../lib/admin-format.js';
import { num, quota } from '../lib/format.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';

/** "1080p" -> 1080; "4k" -> 2160; "*" (any) sorts after every named one. */
function resolutionRank(resolution) {
  if (resolution === '*') return Number.MAX_SAFE_INTEGER;
  const k = /^(\d+(?:\.\d+)?)k$/i.exec(resolution);
  if (k) return Number(k[1]) * 540;
  const n = /^(\d+)/.exec(resolution);
  return n ? Number(n[1]) : Number.MAX_SAFE_INTEGER - 1;
}
export const byResolution = (a, b) =>
  resolutionRank(a.resolution) - resolutionRank(b.resolution) ||
  a.resolution.localeCompare(b.resolution) ||
  a.duration - b.duration ||
  a.unit.localeCompare(b.unit);

const ruleLabel = (r) => `${r.model} ${r.resolution}${r.duration ? ` ${r.duration}s` : ''}`;

export function AdminPrices() {
  const prices = useApi('/api/admin/prices');
  // Whether each model has audio (its catalog entry's `audio`): a model without has no audio price to show.
  const catalog = useApi('/api/admin/models');
  const silent = new Set((catalog.data?.data ?? []).filter((entry) => entry.audio === 'none').map((entry) => entry.id));
  const ratios = useApi('/api/admin/group-ratios');
  const [query, setQuery] = useUrlState({ model: '' });
  const [editing, setEditing] = useState(null);
  const [confirmDialog, confirm] = useConfirm();
  const phone = useIsPhone();
  const currency = prices.data?.currency ?? null;
  const rules = prices.data?.data ?? [];
  const models = [...new Set(rules.map((r) => r.model))].sort();
  const shown = query.model ? models.filter((m) => m === query.model) : models;

  const save = async (rule, values) => {
    const body = {
      model: rule.model,
      resolution: rule.resolution,
      unit: values.unit ?? rule.unit,
      duration: rule.duration,
      price: Number(values.price),
      audio_price: values.audio_price === '' || values.audio_price === undefined ? undefined : Number(values.audio_price),
    };
    await api('/api/admin/prices', { method: 'PUT', body });
    toast(t('prices.saved', { what: ruleLabel(rule) }));
    setEditing(null);
    prices.reload();
  };
  const remove = async (rule) => {
    if (!(await confirm(t('prices.deleteQuestion', { what: ruleLabel(rule) }), t('prices.delete')))) return;
    try {
      await api(`/api/admin/prices/${rule.id}`, { method: 'DELETE' });
      toast(t('prices.deleted', { what: ruleLabel(rule) }));
      prices.reload();
    } catch (error) {
      fail(error);
    }
  };

  return html`<div class="admin-prices">
    <${PageHeader} title=${t('prices.title')} intro=${t('prices.intro', { rate: currency ? t('prices.rate', { units: num(currency.quota_per_unit), money: amount(1, currency.code) }) : '' })} />
    <${NewPrice} models=${models} onSaved=${prices.reload} />
    <${ErrorNote} error=${prices.error} onRetry=${prices.reload} />
    ${
      // The tables wait for the catalog too (which models have audio), so that no audio column shows and then goes.
      prices.data && !catalog.loading
        ? html`
      <div class="toolbar prices-toolbar">
        <${Field} as="select" label=${t('prices.showModel')} name="model_filter" value=${query.model} onChange=${(e) => setQuery({ model: e.target.value })}
          options=${[['', t('prices.allModels')], ...models.map((m) => [m, m])]} />
        <span class="muted small">${t('prices.count', { rules: num(rules.length), models: num(models.length) })}</span>
      </div>
      ${
        shown.length
          ? shown.map(
              (
                model,
                i,
              ) => html`<${ModelPrices} key=${`${model}-${phone}`} model=${model} rules=${rules.filter((r) => r.model === model).sort(byResolution)}
          startOpen=${!phone || i === 0 || query.model === model}
          audio=${!silent.has(model)} currency=${currency} editing=${editing} setEditing=${setEditing} save=${save} remove=${remove} />`,
            )
          : html`<${Card}><p class="muted">${t('prices.none')}</p><//>`
      }`
        : prices.loading || catalog.loading
          ? html`<${Loading} />`
          : null
    }
    <${Ratios} ratios=${ratios} />
    ${confirmDialog}
  </div>`;
}

function ModelPrices({ model, rules, startOpen, audio, currency, editing, setEditing, save, remove }) {
  const [open, setOpen] = useState(startOpen);
  const isEditing = (r) => editing === r.id;
  const formId = (r) => `price-edit-${r.id}`;
  const submit = (rule) => async (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      await save(rule, {
        price: String(form.get('price')).trim(),
        audio_price: String(form.get('audio_price') ?? '').trim(),
        unit: form.get('unit'),
      });
    } catch (error) {
      fail(error);
    }
  };
  const columns = [
    {
      key: 'resolution',
      label: t('prices.col.resolution'),
      card: 'title',
      render: (r) =>
        html`<strong>${r.resolution === '*' ? t('prices.anyResolution') : r.resolution}</strong>${r.duration ? html` <span class="muted">· ${t('prices.forSeconds', { n: r.duration })}</span>` : null}`,
    },
    {
      key: 'unit',
      label: t('prices.col.unit'),
      card: 'badge',
      render: (r) =>
        isEditing(r)
          ? html`<select name="unit" form=${formId(r)} aria-label=${t('prices.unitOf', { what: ruleLabel(r) })} value=${r.unit}><option value="second">${t('prices.unit.second')}</option><option value="clip">${t('prices.unit.clip')}</option></select>`
          : html`<span class="chip">${t(`prices.unit.${r.unit}`)}</span>`,
    },
    {
      key: 'duration',
      label: t('prices.col.duration'),
      num: true,
      render: (r) => (r.duration ? t('prices.seconds', { n: r.duration }) : t('prices.anyDuration')),
    },
    {
      key: 'price',
      label: t('prices.col.price'),
      num: true,
      render: (r) =>
        isEditing(r) ? html`<${PriceInput} rule=${r} form=${formId(r)} currency=${currency} />` : html`<strong>${quota(r.price)}</strong>`,
    },
    {
      key: 'money',
      label: t('prices.col.money', { code: currency?.code ?? '' }),
      num: true,
      render: (r) =>
        isEditing(r) ? html`<span class="muted">${t('prices.whileEditing')}</span>` : (amount(r.money, currency?.code) ?? '—'),
    },
    audio && {
      key: 'audio',
      label: t('prices.col.audio'),
      num: true,
      render: (r) =>
        isEditing(r)
          ? html`<input class="num-input" name="audio_price" form=${formId(r)} type="number" min="0" step="1" value=${r.audio_price ?? ''} placeholder=${t('prices.twice')} aria-label=${t('prices.audioOf', { what: ruleLabel(r) })} />`
          : r.audio_price === null
            ? html`<span class="muted">${t('prices.twiceShort')}</span>`
            : quota(r.audio_price),
    },
    {
      key: 'actions',
      label: t('prices.col.actions'),
      card: 'actions',
      render: (r) =>
        isEditing(r)
          ? html`<form id=${formId(r)} class="actions nowrap" onSubmit=${submit(r)} aria-label=${t('prices.editOf', { what: ruleLabel(r) })}>
            <${Button} type="submit" small icon="check">${t('prices.save')}<//>
            <${Button} kind="secondary" small onClick=${() => setEditing(null)}>${t('common.cancel')}<//>
          </form>`
          : html`<div class="actions nowrap">
            <${Button} kind="secondary" small aria-label=${t('prices.editOf', { what: ruleLabel(r) })} onClick=${() => setEditing(r.id)}>${t('prices.edit')}<//>
            <${Button} kind="danger" small icon="trash-2" aria-label=${t('prices.deleteOf', { what: ruleLabel(r) })} onClick=${() => remove(r)}>${t('prices.delete')}<//>
          </div>`,
    },
  ].filter(Boolean);
  const prices = rules.map((r) => r.price);
  return html`<details class="panel flush list-card model-prices" data-model=${model} open=${open} onToggle=${(e) => setOpen(e.currentTarget.open)}>
    <summary class="panel-head model-summary">
      <h2><${Icon} name="chevron-right" size=${16} class="fold-icon" />${model}</h2>
      <span class="muted small">${t('prices.groupSummary', { rules: num(rules.length), from: quota(Math.min(...prices)), to: quota(Math.max(...prices)) })}</span>
    </summary>
    <${DataTable} caption=${t('prices.of', { model })} columns=${columns} rows=${rules} rowKey=${(r) => r.id}
      rowProps=${(r) => ({ 'data-price-id': r.id, 'data-resolution': r.resolution, class: isEditing(r) ? 'editing' : undefined })} />
  </details>`;
}

/** The price input while editing, with its money value as typed. */
function PriceInput({ rule, form, currency }) {
  const [value, setValue] = useState(String(rule.price));
  const input = useRef(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const money = currency?.quota_per_unit && value !== '' ? amount(Number(value) / currency.quota_per_unit, currency.code) : null;
  return html`<div class="price-input">
    <input class="num-input" name="price" form=${form} type="number" min="0" step="1" required value=${value} onInput=${(e) => setValue(e.target.value)}
      aria-label=${t('prices.priceOf', { what: ruleLabel(rule) })} ref=${input} />
    ${money ? html`<div class="muted small" aria-live="polite">≈ ${money}</div>` : null}
  </div>`;
}

function NewPrice({ models, onSaved }) {
  const { onSubmit, busy } = useSubmit(async (values, form) => {
    await api('/api/admin/prices', {
      method: 'PUT',
      body: {
        model: values.model,
        resolution: values.resolution,
        unit: values.unit,
        duration: values.duration ? Number(values.duration) : undefined,
        price: Number(values.price),
        audio_price: values.audio_price ? Number(values.audio_price) : undefined,
      },
    });
    toast(t('prices.saved', { what: `${values.model} ${values.resolution}` }));
    form.reset();
    onSaved();
  });
  return html`<${Card} title=${t('prices.new')}>
    <form class="grid-form" id="price-form" aria-label=${t('prices.new')} onSubmit=${onSubmit}>
      <${Field} label=${t('prices.col.model')} name="model" required placeholder="alpha/v6" list="price-models" />
      <datalist id="price-models">${models.map((m) => html`<option value=${m} />`)}</datalist>
      <${Field} label=${t('prices.col.resolution')} name="resolution" required placeholder="720p" help=${t('prices.resolutionHelp')} />
      <${Field} as="select" label=${t('prices.col.unit')} name="unit" options=${[
        ['second', t('prices.unit.second')],
        ['clip', t('prices.unit.clip')],
      ]} />
      <${Field} label=${t('prices.durationField')} name="duration" type="number" min="0" step="1" placeholder="0" help=${t('prices.durationHelp')} />
      <${Field} label=${t('prices.col.price')} name="price" type="number" min="0" step="1" required />
      <${Field} label=${t('prices.col.audio')} name="audio_price" type="number" min="0" step="1" help=${t('prices.audioHelp')} />
      <div><${Button} type="submit" icon="plus" disabled=${busy}>${t('prices.saveNew')}<//></div>
    </form>
  <//>`;
}

function Ratios({ ratios }) {
  const { onSubmit, busy } = useSubmit(async (values, form) => {
    await api(`/api/admin/group-ratios/${encodeURIComponent(values.group)}`, { method: 'PUT', body: { ratio: Number(values.ratio) } });
    toast(t('prices.ratioSaved', { group: values.group }));
    form.reset();
    ratios.reload();
  });
  return html`<${Card} title=${t('prices.ratios')} id="ratios">
    <p class="muted">${t('prices.ratiosIntro')}</p>
    <form class="toolbar" id="ratio-form" aria-label=${t('prices.ratioForm')} onSubmit=${onSubmit}>
      <${Field} label=${t('prices.group')} name="group" required />
      <${Field} label=${t('prices.ratio')} name="ratio" type="number" min="0" max="100" step="any" required help=${t('prices.ratioHelp')} />
      <${Button} type="submit" disabled=${busy}>${t('prices.saveRatio')}<//>
    </form>
    <${ErrorNote} error=${ratios.error} onRetry=${ratios.reload} />
    ${
      ratios.data
        ? html`<${DataTable} caption=${t('prices.ratios')} rows=${ratios.data.data} rowKey=${(r) => r.group} empty=${t('prices.noRatios')} emptyIcon="tags"
      columns=${[
        { key: 'group', label: t('prices.group'), card: 'title', render: (r) => html`<code>${r.group}</code>` },
        { key: 'ratio', label: t('prices.ratio'), num: true, card: 'badge', render: (r) => `× ${num(r.ratio)}` },
      ]} />`
        : null
    }
  <//>`;
}
