// Admin: the price table (quota units) and group ratios.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { quota } from '../format.js';
import { confirmAction, fail, field, onSubmit, pageHeader, section, table, toast } from '../ui.js';

export function render(main) {
  const prices = h('div');
  const ratios = h('div');
  const priceForm = onSubmit(
    h(
      'form',
      { class: 'card grid-form', id: 'price-form', 'aria-label': 'Set a price' },
      field('Model', { name: 'model', required: true, placeholder: 'alpha/v6' }),
      field('Resolution', { name: 'resolution', required: true, placeholder: '720p' }, 'Lower-case quality, or * for any.'),
      field('Unit', { tag: 'select', name: 'unit', options: [['second', 'per second'], ['clip', 'per clip']] }),
      field('Duration (s)', { name: 'duration', type: 'number', min: 0, step: 1, placeholder: '0' }, '0: any duration.'),
      field('Price', { name: 'price', type: 'number', min: 0, step: 1, required: true }),
      field('Audio price', { name: 'audio_price', type: 'number', min: 0, step: 1 }, 'Empty: twice the price.'),
      h('div', {}, h('button', { type: 'submit' }, 'Save price')),
    ),
    async (values) => {
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
      toast(`Price of ${values.model} at ${values.resolution} saved.`);
      await loadPrices();
    },
  );
  const ratioForm = onSubmit(
    h(
      'form',
      { class: 'card inline', id: 'ratio-form', 'aria-label': 'Set a group ratio' },
      field('Group', { name: 'group', required: true }),
      field('Ratio', { name: 'ratio', type: 'number', min: 0, max: 100, step: 'any', required: true }, '1 = list price; 0.8 = 20% off.'),
      h('button', { type: 'submit' }, 'Save ratio'),
    ),
    async (values) => {
      await api(`/api/admin/group-ratios/${encodeURIComponent(values.group)}`, { method: 'PUT', body: { ratio: Number(values.ratio) } });
      toast(`Ratio of group ${values.group} saved.`);
      await loadRatios();
    },
  );
  const modelFilter = field('Show model', { tag: 'select', name: 'model_filter', options: [['', 'All models']] });
  let rules = [];
  modelFilter.querySelector('select').addEventListener('change', () => showPrices());
  append(main, [
    pageHeader('Prices', 'Prices are in quota units; a group ratio multiplies every price for that group.'),
    section('Set a price', priceForm),
    section('Price table', h('div', { class: 'toolbar', style: 'margin-bottom:0.75rem' }, modelFilter), prices),
    section('Group ratios', ratioForm, ratios),
  ]);

  function prefill(rule) {
    const form = document.getElementById('price-form');
    for (const name of ['model', 'resolution', 'unit', 'duration', 'price', 'audio_price']) form.elements[name].value = rule[name] ?? '';
    form.elements.price.focus();
  }

  async function loadPrices() {
    try {
      rules = (await api('/api/admin/prices')).data;
      const select = modelFilter.querySelector('select');
      const chosen = select.value;
      fill(select, h('option', { value: '' }, 'All models'), [...new Set(rules.map((r) => r.model))].map((model) => h('option', { value: model, selected: model === chosen }, model)));
      showPrices();
    } catch (error) {
      fail(error);
    }
  }

  function showPrices() {
    const model = modelFilter.querySelector('select').value;
    fill(
      prices,
      table(
        model ? `Prices of ${model}` : 'Prices',
        [
          { label: 'Model', cell: (r) => r.model },
          { label: 'Resolution', cell: (r) => r.resolution },
          { label: 'Unit', cell: (r) => r.unit },
          { label: 'Duration', cell: (r) => (r.duration ? `${r.duration}s` : 'any'), num: true },
          { label: 'Price', cell: (r) => quota(r.price), num: true },
          { label: 'Audio price', cell: (r) => (r.audio_price === null ? '2×' : quota(r.audio_price)), num: true },
          {
            label: 'Actions',
            cell: (r) =>
              h(
                'div',
                { class: 'actions' },
                h('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit price of ${r.model} ${r.resolution} ${r.duration ? `${r.duration}s` : ''}`.trim(), onClick: () => prefill(r) }, 'Edit'),
                h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete price of ${r.model} ${r.resolution} ${r.duration ? `${r.duration}s` : ''}`.trim(), onClick: () => remove(r) }, 'Delete'),
              ),
          },
        ],
        model ? rules.filter((r) => r.model === model) : rules,
        { rowAttrs: (r) => ({ 'data-price-id': r.id }) },
      ),
    );
  }

  async function remove(rule) {
    if (!(await confirmAction(`Delete the price of ${rule.model} at ${rule.resolution}? Tasks without a price are refused.`, 'Delete price'))) return;
    try {
      await api(`/api/admin/prices/${rule.id}`, { method: 'DELETE' });
      await loadPrices();
    } catch (error) {
      fail(error);
    }
  }

  async function loadRatios() {
    try {
      const { data } = await api('/api/admin/group-ratios');
      fill(ratios, table('Group ratios', [{ label: 'Group', cell: (r) => r.group }, { label: 'Ratio', cell: (r) => String(r.ratio), num: true }], data, { empty: 'Every group pays list price (ratio 1).' }));
    } catch (error) {
      fail(error);
    }
  }

  loadPrices();
  loadRatios();
}
