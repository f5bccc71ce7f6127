// Shared widgets: labelled fields, tables, pager, progress bars, dialogs, toasts.
import { append, h, render, uid } from './dom.js';

export function toast(message, kind = 'info') {
  const region = document.getElementById('toasts');
  const item = h('div', { class: `toast ${kind === 'error' ? 'error' : ''}` }, message);
  region.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}

/** Shows an error from an API call, and returns false so handlers can `return fail(e)`. */
export function fail(error) {
  toast(error?.message ?? String(error), 'error');
  return false;
}

/** A labelled input: field('Name', { name: 'name', required: true }) */
export function field(label, attrs = {}, help) {
  const id = attrs.id ?? uid('in');
  const helpId = help ? `${id}-help` : undefined;
  const control = attrs.tag === 'select' ? selectControl(id, attrs, helpId) : h('input', { type: 'text', ...attrs, id, 'aria-describedby': helpId });
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, help ? h('span', { class: 'help', id: helpId }, help) : null);
}

function selectControl(id, attrs, helpId) {
  const { tag: _tag, options = [], value, ...rest } = attrs;
  const select = h('select', { ...rest, id, 'aria-describedby': helpId });
  for (const option of options) {
    const [optionValue, text] = Array.isArray(option) ? option : [option, option];
    select.append(h('option', { value: optionValue, selected: String(optionValue) === String(value ?? '') }, text));
  }
  return select;
}

/** Checkbox group for a list of values, inside a fieldset with a legend. */
export function checkboxGroup(legend, name, values, checked = []) {
  return h(
    'fieldset',
    {},
    h('legend', {}, legend),
    values.length === 0
      ? h('p', { class: 'muted' }, 'No models are on offer yet.')
      : h('div', { class: 'checks' }, values.map((value) => h('label', {}, h('input', { type: 'checkbox', name, value, checked: checked.includes(value), 'data-multi': '1' }), value))),
  );
}

/** Reads a form's named controls; checkbox groups become arrays. */
export function formValues(form) {
  const values = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      const group = form.querySelectorAll(`input[type=checkbox][name="${CSS.escape(el.name)}"]`);
      if (group.length > 1 || el.dataset.multi) {
        values[el.name] ??= [];
        if (el.checked) values[el.name].push(el.value);
      } else values[el.name] = el.checked;
    } else values[el.name] = el.value.trim();
  }
  return values;
}

/**
 * Submits a form through `handler` with its button disabled meanwhile; errors become toasts and,
 * when the API names a field, that field is marked invalid and focused.
 */
export function onSubmit(form, handler) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const buttons = form.querySelectorAll('button[type=submit]');
    buttons.forEach((b) => (b.disabled = true));
    form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
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
      buttons.forEach((b) => (b.disabled = false));
    }
  });
  return form;
}

/**
 * A table with a caption; columns: [{ label, cell: (row) => node|string, num?: true, class? }].
 */
export function table(caption, columns, rows, { rowAttrs, empty = 'Nothing here yet.' } = {}) {
  const head = h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: [c.num ? 'num' : '', c.class ?? ''].join(' ').trim() || null }, c.label))));
  const body = h('tbody');
  for (const row of rows) body.append(tableRow(columns, row, rowAttrs));
  if (rows.length === 0) body.append(h('tr', {}, h('td', { colspan: columns.length, class: 'empty' }, empty)));
  // Focusable, so a table wider than the screen can be scrolled by keyboard too.
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption }, h('table', {}, h('caption', {}, caption), head, body));
}

export function tableRow(columns, row, rowAttrs) {
  return h(
    'tr',
    rowAttrs ? rowAttrs(row) : {},
    columns.map((c) => h('td', { class: [c.num ? 'num' : '', c.class ?? ''].join(' ').trim() || null, 'data-col': c.key ?? null }, c.cell(row))),
  );
}

export function badge(text, kind) {
  return h('span', { class: `badge ${kind ?? String(text).toLowerCase()}` }, text);
}

/** A labelled progress bar: the native element (announced by screen readers) plus the figure. */
export function progressBar(value, label) {
  const bar = h('progress', { max: 100, value, 'aria-label': label });
  const pct = h('span', { class: 'pct' }, `${value}%`);
  const wrap = h('div', { class: 'progress' }, bar, pct);
  wrap.update = (next) => {
    bar.value = next;
    pct.textContent = `${next}%`;
  };
  return wrap;
}

/** Previous/next paging; `onPage(page)` reloads. */
export function pager(page, pageSize, total, onPage) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', class: 'secondary small', disabled: page <= 1, onClick: () => onPage(page - 1) }, 'Previous'),
    h('span', {}, `Page ${page} of ${pages} · ${total} total`),
    h('button', { type: 'button', class: 'secondary small', disabled: page >= pages, onClick: () => onPage(page + 1) }, 'Next'),
  );
}

/** A modal dialog (native <dialog>: focus stays inside, Escape closes). Returns { dialog, body, close }. */
export function openDialog(title, build) {
  const titleId = uid('dlg');
  const body = h('div');
  const dialog = h(
    'dialog',
    { 'aria-labelledby': titleId },
    h('h2', { id: titleId }, title),
    body,
    h('div', { class: 'actions', style: 'margin-top:1rem' }, h('button', { type: 'button', class: 'secondary', onClick: () => dialog.close() }, 'Close')),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  const close = () => dialog.close();
  append(body, [build(close)]);
  dialog.showModal();
  return { dialog, body, close };
}

/** A yes/no confirmation in a dialog; resolves true on confirm. */
export function confirmAction(question, confirmLabel = 'Confirm') {
  return new Promise((resolve) => {
    let answered = false;
    const { dialog } = openDialog('Please confirm', (close) =>
      h(
        'div',
        {},
        h('p', {}, question),
        h('button', { type: 'button', class: 'danger', onClick: () => { answered = true; resolve(true); close(); } }, confirmLabel),
      ),
    );
    dialog.addEventListener('close', () => answered || resolve(false));
  });
}

export function pageHeader(title, intro) {
  return [h('h1', { tabindex: '-1' }, title), intro ? h('p', { class: 'hint' }, intro) : null];
}

export function section(title, ...children) {
  const id = uid('sec');
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

export { render };
