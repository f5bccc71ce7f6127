// Forms stay uncontrolled: on submit the named controls are read (checkbox groups become arrays),
// the buttons wait, and an API error naming a field marks and focuses that field (a dotted field,
// `prices[0].price`, finds its control by that name, else by the nearest name around it).
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { Icon } from './icon.js';
import { errorText, Field, fail } from './ui.js';

export function formValues(form) {
  const values = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      if (el.dataset.multi) {
        values[el.name] ??= [];
        if (el.checked) values[el.name].push(el.value);
      } else values[el.name] = el.checked;
    } else if (el.type === 'file') values[el.name] = el.files?.[0] ?? null;
    else values[el.name] = el.value.trim();
  }
  return values;
}

/**
 * The control a field path names: `prices[0].price` itself, else the first control inside it
 * (`durations` -> `durations.min`), else the nearest one around it (`routes[0].options.seed` -> `routes[0].options`).
 */
export function controlOf(form, param) {
  const named = (name) => form.querySelector(`[name="${CSS.escape(name)}"]`);
  const inside = form.querySelector(`[name^="${CSS.escape(param)}."], [name^="${CSS.escape(param)}["]`);
  let found = named(param) ?? inside;
  for (let name = param; !found && name;) {
    const cut = Math.max(name.lastIndexOf('.'), name.lastIndexOf('['));
    name = cut > 0 ? name.slice(0, cut) : '';
    if (name) found = named(name);
  }
  return found;
}

/**
 * <form onSubmit=${submit}> with `busy` while `handler(values, form)` runs. An error shows as a toast,
 * or with `{ inline: true }` stays in `error` for the form to show beside its fields (<ErrorNote>).
 */
export function useSubmit(handler, { inline = false } = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const onSubmit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
    setBusy(true);
    setError(null);
    try {
      await handler(formValues(form), form);
    } catch (error) {
      const named = error?.param ? controlOf(form, error.param) : null;
      if (named) {
        named.setAttribute('aria-invalid', 'true');
        named.focus();
      }
      if (inline) setError(error);
      else fail(error);
    } finally {
      setBusy(false);
    }
  };
  return { onSubmit, busy, error, setError };
}

/** A form's error beside its buttons: the field it names, in the page's language, then what is wrong with it. */
export function FormError({ error }) {
  if (!error) return null;
  const lead = error.param ? html`<strong class="form-error-field">${t('form.checkField', { field: error.param })}</strong> ` : null;
  return html`<div class="notice danger form-error" role="alert"><${Icon} name="circle-alert" /><span>${lead}${errorText(error)}</span></div>`;
}

/**
 * A <Field> whose control keeps what was typed or picked when its form renders again (rows added, a list
 * loaded): Preact sets a `value` prop back on every render, so `value` here is only where it starts.
 */
export function KeptField({ value: initial, onChange, ...props }) {
  const [value, setValue] = useState(initial ?? '');
  const update = (event) => {
    setValue(event.target.value);
    onChange?.(event);
  };
  return html`<${Field} ...${props} value=${value} ...${props.as === 'select' ? { onChange: update } : { onInput: update }} />`;
}

/** A checkbox of a group (`name` read as a list on submit) that keeps its state when its form renders again. */
export function KeptCheck({ name, value, checked: initial = false, label, children }) {
  const [checked, setChecked] = useState(initial);
  return html`<label><input type="checkbox" name=${name} value=${value} data-multi="1" checked=${checked} onChange=${(e) => setChecked(e.target.checked)} />${label}${children}</label>`;
}
