// A catalog route's options as a form of its platform (GET /api/admin/platforms `route_options`): a switch, a choice,
// a list, a line of text, or, for fal and Replicate, the input map, proposed from the endpoint's published schema
// (GET /api/admin/channels/:id/schema) and edited field by field. Raw JSON stays, as the exception.
import { api } from '../api.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { KeptField } from './form.js';
import { Button, ErrorNote } from './ui.js';

/** The gateway fields an input map may name, as the API's input-map.ts lists them. */
const GATEWAY_FIELDS = ['prompt', 'first_frame', 'last_frame', 'seconds', 'aspect_ratio', 'resolution', 'audio', 'negative_prompt', 'seed'];
const NUMBER_FIELDS = ['seconds', 'seed'];
const NUMBER_FORMS = ['integer', 'string', 'seconds'];

/** `{"prompt": "prompt", "seconds": {"field": "duration", "as": "string"}}` -> `{prompt: {field}, seconds: {field, as}}`. */
const targetsOf = (map) =>
  Object.fromEntries(Object.entries(map ?? {}).map(([field, target]) => [field, typeof target === 'string' ? { field: target } : target]));

/** Whether the stored options are all ones the platform's form draws (else they are shown as JSON). */
export function drawable(options, described) {
  return Object.keys(options ?? {}).every((name) => described.some((option) => option.name === name));
}

/**
 * The options a route row's controls hold, as the API takes them (`prefix` is `routes[i].options`); absent when none.
 * `values` are the form's (checkbox groups as lists).
 */
export function optionsFromForm(values, prefix, described) {
  const options = {};
  for (const option of described) {
    const at = `${prefix}.${option.name}`;
    if (option.kind === 'boolean') {
      if (values[at]) options[option.name] = true;
    } else if (option.kind === 'list') {
      const picked = option.choices
        ? (values[at] ?? [])
        : (values[at] ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .map(Number);
      if (picked.length) options[option.name] = picked;
    } else if (option.kind === 'input_map') {
      const map = inputMapFromForm(values, at);
      if (Object.keys(map).length) options[option.name] = map;
    } else if (values[at]) options[option.name] = values[at];
  }
  return Object.keys(options).length ? options : undefined;
}

function inputMapFromForm(values, at) {
  const map = {};
  for (const field of GATEWAY_FIELDS) {
    const name = values[`${at}.${field}`];
    if (!name) continue;
    const as = values[`${at}.${field}.as`];
    const spelled = values[`${at}.${field}.values`];
    const target = { field: name, ...(as && as !== 'integer' ? { as } : {}), ...(spelled ? { values: JSON.parse(spelled) } : {}) };
    map[field] = Object.keys(target).length === 1 ? name : target;
  }
  return map;
}

/** The controls of one route's options, for its platform. */
export function RouteOptionsForm({ prefix, platform, described, initial, lang, upstreamModel }) {
  return html`<div class="route-options span-all" data-route-options=${platform}>
    ${described.map((option) => {
      const label = option.label?.[lang] ?? option.label?.en ?? option.name;
      const help = option.description?.[lang] ?? option.description?.en;
      const name = `${prefix}.${option.name}`;
      const value = initial?.[option.name];
      if (option.kind === 'input_map')
        return html`<${InputMapForm} key=${`${platform}.${option.name}`} name=${name} label=${label} help=${help} platform=${platform} initial=${value} upstreamModel=${upstreamModel} />`;
      if (option.kind === 'boolean')
        return html`<label class="check-line"><input type="checkbox" name=${name} checked=${value === true} />${label}<span class="muted small">${help}</span></label>`;
      if (option.kind === 'choice')
        return html`<${KeptField} as="select" label=${label} name=${name} value=${value ?? ''} help=${help} options=${[['', t('models.optionDefault')], ...option.choices.map((choice) => [choice, choice])]} />`;
      if (option.kind === 'list' && option.choices)
        return html`<fieldset class="inner"><legend>${label}</legend><p class="muted small">${help}</p>
          <div class="checks">${option.choices.map((choice) => html`<label><input type="checkbox" name=${name} value=${choice} data-multi="1" checked=${(value ?? []).includes(choice)} />${choice}</label>`)}</div>
        </fieldset>`;
      return html`<${KeptField} label=${label} name=${name} value=${Array.isArray(value) ? value.join(', ') : (value ?? '')} help=${help} />`;
    })}
  </div>`;
}

/**
 * A hosted route's input map: each gateway field and the endpoint's input field that takes it, numbers as the endpoint
 * writes them. "Read the schema" asks the API for the endpoint's published input through a channel of the platform,
 * lists its fields and fills in the proposal, which the operator checks before saving.
 */
function InputMapForm({ name, label, help, platform, initial, upstreamModel }) {
  const [map, setMap] = useState(() => targetsOf(initial));
  const [schema, setSchema] = useState(null);
  const [state, setState] = useState({ busy: false, error: null, from: null });
  // Bumped when a proposal replaces what the fields hold (uncontrolled fields start again from the new map).
  const [round, setRound] = useState(0);

  const read = async () => {
    setState({ busy: true, error: null, from: null });
    try {
      const endpoint = upstreamModel();
      if (!endpoint) throw new Error(t('models.schemaNeedsUpstream'));
      const channels = (await api('/api/admin/channels')).data.filter((channel) => channel.platform === platform);
      const channel = channels.find((candidate) => candidate.status === 'enabled') ?? channels[0];
      if (!channel) throw new Error(t('models.schemaNeedsChannel', { platform }));
      const answer = await api(`/api/admin/channels/${channel.id}/schema`, { query: { upstream_model: endpoint } });
      setSchema(answer.schema);
      setMap(targetsOf(answer.input_map));
      setRound((n) => n + 1);
      setState({ busy: false, error: null, from: { endpoint, channel: channel.name } });
    } catch (error) {
      setState({ busy: false, error, from: null });
    }
  };
  const properties = Object.entries(schema?.properties ?? {});
  const listId = `${name}.fields`;
  return html`<fieldset class="inner input-map" data-input-map=${name}>
    <legend>${label}</legend>
    <p class="muted small">${help}</p>
    <div class="actions">
      <${Button} small kind="secondary" icon="search" disabled=${state.busy} onClick=${read}>${t('models.readSchema')}<//>
    </div>
    ${state.from ? html`<p class="notice info small" role="status">${t('models.schemaProposed', state.from)}</p>` : null}
    <${ErrorNote} error=${state.error} />
    <datalist id=${listId}>${properties.map(([property]) => html`<option value=${property} />`)}</datalist>
    <div class="map-rows" key=${round}>
      ${GATEWAY_FIELDS.map((field) => {
        const target = map[field];
        return html`<div class="map-row" data-gateway-field=${field}>
          <${KeptField} label=${field} name=${`${name}.${field}`} value=${target?.field ?? ''} list=${listId} placeholder=${t('models.notTaken')} autocomplete="off" />
          ${NUMBER_FIELDS.includes(field) ? html`<${KeptField} as="select" label=${t('models.writtenAs', { field })} name=${`${name}.${field}.as`} value=${target?.as ?? 'integer'} options=${NUMBER_FORMS.map((form) => [form, t(`models.as.${form}`)])} />` : null}
          ${
            target?.values
              ? html`<input type="hidden" name=${`${name}.${field}.values`} value=${JSON.stringify(target.values)} /><span class="muted small">${Object.entries(
                  target.values,
                )
                  .map(([ours, theirs]) => `${ours} → ${theirs}`)
                  .join(', ')}</span>`
              : null
          }
        </div>`;
      })}
    </div>
    ${
      properties.length
        ? html`<details class="schema-fields" open>
        <summary>${t('models.schemaFields', { n: properties.length })}</summary>
        <table class="data-table compact"><thead><tr><th>${t('models.schemaField')}</th><th>${t('models.schemaType')}</th><th>${t('models.schemaValues')}</th></tr></thead>
          <tbody>${properties.map(([property, spec]) => html`<tr data-schema-field=${property}><td><code>${property}</code>${schema.required.includes(property) ? html` <span class="muted small">${t('models.required')}</span>` : null}</td><td>${spec.type ?? ''}</td><td>${(spec.enum ?? []).join(', ')}${spec.default !== undefined ? html` <span class="muted small">${t('models.schemaDefault', { value: String(spec.default) })}</span>` : null}</td></tr>`)}</tbody>
        </table>
      </details>`
        : null
    }
  </fieldset>`;
}
