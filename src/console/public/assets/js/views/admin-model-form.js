// Admin: one catalog entry's form, to add a model (POST /api/admin/models) or change one (PATCH): what it can
// do, its prices, the routes that serve it and its lifecycle. Controls are named as the API names its fields
// (`prices[0].price`, `routes[1].options`), so a 400 marks the very control it names, and its message shows
// beside the buttons, which stay in sight at the bottom of the long form.
import { api, ApiError } from '../api.js';
import { FormError, KeptCheck, KeptField, useSubmit } from '../components/form.js';
import { drawable, optionsFromForm, RouteOptionsForm } from '../components/route-options.js';
import { Button, Dialog, toast } from '../components/ui.js';
import { AUDIO, fromLocalInput, modeLabel, MODEL_STATUSES, MODES, toLocalInput } from '../lib/catalog-format.js';
import { html, useRef, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

let rowKeys = 0;
const row = (initial = {}) => ({ key: ++rowKeys, unit: initial.unit ?? 'second', initial });

const list = (text) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
/** A number field: empty is `empty` (absent, or null to clear it). */
const numberOr = (text, empty) => (text === '' || text === undefined ? empty : Number(text));

/** JSON with its keys in order: two values alike in everything but key order compare equal. */
const stable = (value) =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y))) : v,
  );
/** A field as the API would store it, to tell whether the form changed it (modes in any order; a clip price's absent length is 0). */
function comparable(field, value) {
  if (field === 'modes') return [...value].sort();
  if (field === 'prices')
    return value.map((p) => ({ ...p, duration: p.unit === 'clip' ? (p.duration ?? 0) : 0, audio_price: p.audio_price ?? null }));
  return value ?? null;
}

/** JSON typed into a field, or a 400-like error naming that field. */
function parseJson(text, field) {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, t('models.err.json', { field }), field);
  }
}

/** entry: null to add a model. */
export function ModelForm({ entry, platforms, lang, onClose, onSaved }) {
  const isNew = entry === null;
  const all = useApi('/api/admin/models');
  const [durationKind, setDurationKind] = useState(entry && !Array.isArray(entry.durations) ? 'range' : 'list');
  const [prices, setPrices] = useState(() => (entry?.prices.length ? entry.prices.map(row) : [row()]));
  const [routes, setRoutes] = useState(() => (entry?.routes.length ? entry.routes.map(row) : [row()]));
  const clear = isNew ? undefined : null;

  const { onSubmit, busy, error } = useSubmit(
    async (values) => {
      const durations =
        durationKind === 'range'
          ? { min: numberOr(values['durations.min'], null), max: numberOr(values['durations.max'], null) }
          : list(values.durations).map(Number);
      const body = {
        label: values.label || clear,
        aliases: list(values.aliases),
        owned_by: values.owned_by || clear,
        released_at: values.released_at || clear,
        modes: values.modes,
        durations,
        default_duration: numberOr(values.default_duration, clear),
        resolutions: list(values.resolutions),
        aspect_ratios: list(values.aspect_ratios),
        audio: values.audio,
        max_reference_images: numberOr(values.max_reference_images, clear),
        prompt_max_length: numberOr(values.prompt_max_length, clear),
        prices: prices.map((_, i) => {
          const at = (name) => values[`prices[${i}].${name}`];
          const unit = at('unit');
          return {
            resolution: at('resolution'),
            unit,
            ...(unit === 'clip' && at('duration') !== '' ? { duration: Number(at('duration')) } : {}),
            price: numberOr(at('price'), null),
            audio_price: numberOr(at('audio_price'), null),
          };
        }),
        routes: routes.map((_, i) => {
          const at = (name) => values[`routes[${i}].${name}`];
          const upstream = at('upstream_model');
          const described = platforms.find((p) => p.platform === at('platform'))?.route_options ?? [];
          const options = at('options_json')
            ? at('options') && parseJson(at('options'), `routes[${i}].options`)
            : optionsFromForm(values, `routes[${i}].options`, described);
          const cost = at('cost');
          return {
            platform: at('platform'),
            upstream_model: upstream.startsWith('{') ? parseJson(upstream, `routes[${i}].upstream_model`) : upstream,
            ...(options ? { options } : {}),
            ...(cost ? { cost: parseJson(cost, `routes[${i}].cost`) } : {}),
          };
        }),
        status: values.status,
        // The input holds minutes: a stored sunset shown unchanged keeps its seconds.
        sunset_at:
          entry?.sunset_at && values.sunset_at === toLocalInput(entry.sunset_at)
            ? entry.sunset_at
            : (fromLocalInput(values.sunset_at) ?? clear),
        replacement: values.replacement || clear,
      };
      if (isNew) {
        await api('/api/admin/models', { method: 'POST', body: { id: values.id, ...body } });
        toast(t('models.created', { id: values.id }));
      } else {
        // Only what changed: a builtin model saved as it was stays unmodified (later releases still update it).
        const changed = Object.entries(body).filter(
          ([field, value]) => stable(comparable(field, value)) !== stable(comparable(field, entry[field])),
        );
        if (changed.length)
          await api(`/api/admin/models/${encodeURIComponent(entry.id)}`, { method: 'PATCH', body: Object.fromEntries(changed) });
        toast(t(changed.length ? 'models.saved' : 'models.unchanged', { id: entry.id }));
      }
      onSaved();
      onClose();
    },
    { inline: true },
  );

  const range = entry && !Array.isArray(entry.durations) ? entry.durations : null;
  // Replacements: the active models (and the one it names now, whatever became of it).
  const others = (all.data?.data ?? [])
    .filter((m) => m.id !== entry?.id && (m.status === 'active' || m.id === entry?.replacement))
    .map((m) => m.id);
  const title = isNew ? t('models.new') : t('models.editOf', { id: entry.id });

  return html`<${Dialog} wide title=${title} onClose=${onClose}>
    <form class="model-form stack" id="model-form" aria-label=${title} onSubmit=${onSubmit} novalidate>
      ${!isNew && entry.source !== 'custom' ? html`<p class="notice info">${t(entry.source === 'feed' ? 'models.feedNote' : 'models.builtinNote')}</p>` : null}
      <fieldset><legend>${t('models.section.model')}</legend>
        <div class="grid-form">
          <${KeptField} label=${t('models.id')} name="id" required value=${entry?.id ?? ''} readOnly=${!isNew} autocomplete="off" placeholder="kling-v3" help=${isNew ? t('models.idHelp') : t('models.idFixed')} />
          <${KeptField} label=${t('models.label')} name="label" value=${entry?.label ?? ''} placeholder="Kling 3.0" help=${t('models.optional')} />
          <${KeptField} label=${t('models.aliases')} name="aliases" value=${entry?.aliases?.join(', ') ?? ''} placeholder="kling-v3-0" help=${t('models.aliasesHelp')} />
          <${KeptField} label=${t('models.ownedBy')} name="owned_by" value=${entry?.owned_by ?? ''} placeholder="kling" help=${t('models.ownedByHelp')} />
          <${KeptField} label=${t('models.releasedAt')} name="released_at" type="date" value=${entry?.released_at ?? ''} help=${t('models.optional')} />
        </div>
      </fieldset>

      <fieldset><legend>${t('models.section.abilities')}</legend>
        <div class="grid-form">
          <fieldset class="span-all inner"><legend>${t('models.col.modes')}</legend>
            <div class="checks">${MODES.map((mode) => html`<${KeptCheck} name="modes" value=${mode} checked=${entry ? entry.modes.includes(mode) : mode === 'text-to-video'} label=${modeLabel(mode)} />`)}</div>
          </fieldset>
          <${KeptField} as="select" label=${t('models.durationsKind')} name="durations_kind" value=${durationKind} onChange=${(e) => setDurationKind(e.target.value)}
            options=${[
              ['list', t('models.durationsList')],
              ['range', t('models.durationsRange')],
            ]} />
          ${
            durationKind === 'list'
              ? html`<${KeptField} key="list" label=${t('models.lengths')} name="durations" required placeholder="5, 10" value=${Array.isArray(entry?.durations) ? entry.durations.join(', ') : ''} help=${t('models.durationsHelp')} />`
              : html`<div class="pair" key="range">
                <${KeptField} label=${t('models.minSeconds')} name="durations.min" type="number" min="1" step="1" required value=${range?.min ?? ''} placeholder="3" />
                <${KeptField} label=${t('models.maxSeconds')} name="durations.max" type="number" min="1" step="1" required value=${range?.max ?? ''} placeholder="15" />
              </div>`
          }
          <${KeptField} label=${t('models.defaultDuration')} name="default_duration" type="number" min="1" step="1" value=${entry?.default_duration ?? ''} help=${t('models.defaultDurationHelp')} />
          <${KeptField} label=${t('models.resolutions')} name="resolutions" value=${entry?.resolutions.join(', ') ?? ''} placeholder="720p, 1080p" help=${t('models.resolutionsHelp')} />
          <${KeptField} label=${t('models.aspectRatios')} name="aspect_ratios" value=${entry?.aspect_ratios.join(', ') ?? ''} placeholder="16:9, 9:16, 1:1" help=${t('models.aspectRatiosHelp')} />
          <${KeptField} as="select" label=${t('models.audio')} name="audio" value=${entry?.audio ?? 'none'} options=${AUDIO.map((a) => [a, t(`models.audio.${a}`)])} />
          <${KeptField} label=${t('models.maxReferenceImages')} name="max_reference_images" type="number" min="0" max="64" step="1" value=${entry?.max_reference_images ?? ''} help=${t('models.noLimit')} />
          <${KeptField} label=${t('models.promptMaxLength')} name="prompt_max_length" type="number" min="1" step="1" value=${entry?.prompt_max_length ?? ''} help=${t('models.noLimit')} />
        </div>
      </fieldset>

      <fieldset><legend>${t('models.col.prices')}</legend>
        <p class="muted small fieldset-intro">${t('models.pricesHelp')}</p>
        <div class="form-rows">
          ${prices.map(
            (
              p,
              i,
            ) => html`<${PriceRow} key=${p.key} index=${i} row=${p} onUnit=${(unit) => setPrices((rows) => rows.map((r) => (r.key === p.key ? { ...r, unit } : r)))}
            onRemove=${prices.length > 1 ? () => setPrices((rows) => rows.filter((r) => r.key !== p.key)) : null} />`,
          )}
        </div>
        <${Button} small kind="secondary" icon="plus" onClick=${() => setPrices((rows) => [...rows, row()])}>${t('models.addPrice')}<//>
      </fieldset>

      <fieldset><legend>${t('models.routes')}</legend>
        <p class="muted small fieldset-intro">${t('models.routesHelp')}</p>
        <div class="form-rows">
          ${routes.map(
            (r, i) => html`<${RouteRow} key=${r.key} index=${i} row=${r} platforms=${platforms} lang=${lang}
            onRemove=${routes.length > 1 ? () => setRoutes((rows) => rows.filter((x) => x.key !== r.key)) : null} />`,
          )}
        </div>
        <${Button} small kind="secondary" icon="plus" onClick=${() => setRoutes((rows) => [...rows, row()])}>${t('models.addRoute')}<//>
      </fieldset>

      <fieldset><legend>${t('models.section.lifecycle')}</legend>
        <div class="grid-form">
          <${KeptField} as="select" label=${t('models.col.status')} name="status" value=${entry?.status ?? 'active'} options=${MODEL_STATUSES.map((s) => [s, t(`status.${s}`)])} />
          <${KeptField} label=${t('models.sunset')} name="sunset_at" type="datetime-local" value=${toLocalInput(entry?.sunset_at)} help=${t('models.sunsetHelp')} />
          <${KeptField} as="select" label=${t('models.replacement')} name="replacement" value=${entry?.replacement ?? ''}
            options=${[['', t('models.noReplacement')], ...others.map((id) => [id, id])]} />
        </div>
      </fieldset>

      <div class="form-foot">
        <${FormError} error=${error} />
        <div class="actions"><${Button} type="submit" icon="check" disabled=${busy}>${t(isNew ? 'models.create' : 'models.save')}<//><${Button} kind="secondary" onClick=${onClose}>${t('common.cancel')}<//></div>
      </div>
    </form>
  <//>`;
}

function PriceRow({ index, row: { initial, unit }, onUnit, onRemove }) {
  const name = (field) => `prices[${index}].${field}`;
  return html`<div class="form-row price-row" data-price-row=${index}>
    <${KeptField} label=${t('models.resolution')} name=${name('resolution')} required value=${initial.resolution ?? ''} placeholder="720p" />
    <${KeptField} as="select" label=${t('models.unit')} name=${name('unit')} value=${unit} onChange=${(e) => onUnit(e.target.value)}
      options=${[
        ['second', t('models.unit.second')],
        ['clip', t('models.unit.clip')],
      ]} />
    <${KeptField} label=${t('models.clipSeconds')} name=${name('duration')} type="number" min="0" step="1" disabled=${unit !== 'clip'} value=${initial.duration || ''} placeholder=${unit === 'clip' ? t('models.any') : '—'} />
    <${KeptField} label=${t('models.price')} name=${name('price')} type="number" min="0" step="1" required value=${initial.price ?? ''} />
    <${KeptField} label=${t('models.audioPrice')} name=${name('audio_price')} type="number" min="0" step="1" value=${initial.audio_price ?? ''} placeholder=${t('models.twice')} />
    <div class="row-remove">${onRemove ? html`<${Button} small kind="ghost" iconOnly icon="trash-2" onClick=${onRemove}>${t('models.removePrice', { n: index + 1 })}<//>` : null}</div>
  </div>`;
}

/** The upstream id a route row names for reading its schema: the id, or of an object by mode the image one, else the first. */
function upstreamOf(text) {
  if (!text?.startsWith('{')) return text;
  try {
    const byMode = JSON.parse(text);
    return byMode['image-to-video'] ?? Object.values(byMode)[0];
  } catch {
    return '';
  }
}

function RouteRow({ index, row: { initial }, platforms, lang, onRemove }) {
  const name = (field) => `routes[${index}].${field}`;
  const [platform, setPlatform] = useState(initial.platform ?? platforms[0]?.platform);
  const described = platforms.find((p) => p.platform === platform)?.route_options ?? [];
  // Options the platform's form cannot draw (or asked for) are edited as JSON.
  const [asJson, setAsJson] = useState(!drawable(initial.options, described));
  const rowRef = useRef(null);
  const upstream =
    initial.upstream_model === undefined
      ? ''
      : typeof initial.upstream_model === 'string'
        ? initial.upstream_model
        : JSON.stringify(initial.upstream_model);
  const sameOptions = platform === initial.platform ? initial.options : undefined;
  const readUpstream = () => upstreamOf(rowRef.current?.querySelector(`[name="${CSS.escape(name('upstream_model'))}"]`)?.value.trim());
  return html`<div class="form-row route-row" data-route-row=${index} ref=${rowRef}>
    <${KeptField} as="select" label=${t('models.platform')} name=${name('platform')} value=${platform} onChange=${(e) => setPlatform(e.target.value)}
      options=${platforms.map((p) => [p.platform, p.label?.[lang] ?? p.label?.en ?? p.platform])} />
    <${KeptField} label=${t('models.upstreamModel')} name=${name('upstream_model')} required value=${upstream} placeholder="kling-v3" help=${t('models.upstreamHelp')} />
    <${KeptField} label=${t('models.cost')} name=${name('cost')} value=${initial.cost ? JSON.stringify(initial.cost) : ''} placeholder='[{"resolution": "720p", "unit": "second", "usd": 0.05}]' help=${t('models.costHelp')} class="mono-field" />
    <div class="row-remove">${onRemove ? html`<${Button} small kind="ghost" iconOnly icon="trash-2" onClick=${onRemove}>${t('models.removeRoute', { n: index + 1 })}<//>` : null}</div>
    ${
      described.length || asJson
        ? html`<label class="check-line span-all"><input type="checkbox" name=${name('options_json')} checked=${asJson} onChange=${(e) => setAsJson(e.target.checked)} />${t('models.optionsAsJson')}</label>`
        : html`<p class="muted small span-all">${t('models.noRouteOptions')}</p>`
    }
    ${
      asJson
        ? html`<${KeptField} key=${`json.${platform}`} label=${t('models.options')} name=${name('options')} value=${sameOptions ? JSON.stringify(sameOptions) : ''} help=${t('models.optionsHelp')} class="mono-field span-all" />`
        : described.length
          ? html`<${RouteOptionsForm} key=${platform} prefix=${name('options')} platform=${platform} described=${described} initial=${sameOptions} lang=${lang} upstreamModel=${readUpstream} />`
          : null
    }
  </div>`;
}
