// Forms stay uncontrolled: on submit the named controls are read (checkbox groups become arrays),
// the buttons wait, and an API error naming a field marks and focuses that field.
import { useState } from '../lib/html.js';
import { fail } from './ui.js';

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

/** <form onSubmit=${submit}> with `busy` while `handler(values, form)` runs. */
export function useSubmit(handler) {
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
    setBusy(true);
    try {
      await handler(formValues(form), form);
    } catch (error) {
      const named = error?.param ? form.querySelector(`[name="${CSS.escape(error.param.split('.')[0])}"]`) : null;
      if (named) {
        named.setAttribute('aria-invalid', 'true');
        named.focus();
      }
      fail(error);
    } finally {
      setBusy(false);
    }
  };
  return { onSubmit, busy };
}
