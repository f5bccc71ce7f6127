// A table on wide screens that becomes a list of cards on phones (≤ 640 px), so nothing falls off-screen.
import { html, useEffect, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { Icon } from './icon.js';
import { Empty } from './ui.js';

const phoneQuery = matchMedia('(max-width: 640px)');
/** True on a phone-sized viewport; follows rotation and resizing. */
export function useIsPhone() {
  const [phone, setPhone] = useState(phoneQuery.matches);
  useEffect(() => {
    const change = (e) => setPhone(e.matches);
    phoneQuery.addEventListener('change', change);
    return () => phoneQuery.removeEventListener('change', change);
  }, []);
  return phone;
}

/**
 * columns: [{ key, label, render(row) -> node, num?, sort?: 'field' (sortable by that URL sort key),
 *             card?: 'title' | 'badge' | 'media' | 'meta' | 'actions' | 'hide', class? }]
 * On a phone each row is a card: media left, title with its badge, the meta columns as label/value
 * pairs, the actions at the bottom. Columns without `card` are meta.
 * sort / onSort: the current sort key ('created_at' or '-created_at') and a setter.
 * rowProps(row): extra attributes for the row or card (data-* for tests, a class).
 */
export function DataTable({ caption, columns, rows, rowKey, rowProps, sort, onSort, empty, emptyIcon }) {
  const phone = useIsPhone();
  if (!rows?.length) return html`<div class="table-empty"><${Empty} icon=${emptyIcon} title=${empty ?? t('common.nothing')} /></div>`;
  if (phone) return html`<${CardList} ...${{ caption, columns, rows, rowKey, rowProps }} />`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label=${caption}><table class="data-table">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr>${columns.map((c) => html`<th scope="col" class=${cls(c)} aria-sort=${ariaSort(c, sort)}>${c.sort && onSort ? html`<${SortButton} column=${c} sort=${sort} onSort=${onSort} />` : c.label}</th>`)}</tr></thead>
    <tbody>${rows.map((row) => html`<tr key=${rowKey(row)} ...${rowProps?.(row) ?? {}}>${columns.map((c) => html`<td class=${cls(c)} data-col=${c.key}>${c.render(row)}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

const cls = (c) => [c.num ? 'num' : '', c.class ?? ''].join(' ').trim() || undefined;
function ariaSort(column, sort) {
  if (!column.sort || !sort) return undefined;
  if (sort === column.sort) return 'ascending';
  if (sort === `-${column.sort}`) return 'descending';
  return 'none';
}

function SortButton({ column, sort, onSort }) {
  const state = ariaSort(column, sort);
  const next = state === 'descending' ? column.sort : `-${column.sort}`;
  return html`<button type="button" class="sort-button" onClick=${() => onSort(next)} title=${t('table.sortBy', { column: column.label })}>
    ${column.label}<${Icon} name=${state === 'ascending' ? 'arrow-up' : state === 'descending' ? 'arrow-down' : 'arrow-up-down'} size=${14} />
  </button>`;
}

function CardList({ caption, columns, rows, rowKey, rowProps }) {
  const of = (kind) => columns.filter((c) => (c.card ?? 'meta') === kind);
  const [media, title, badge, meta, actions] = ['media', 'title', 'badge', 'meta', 'actions'].map(of);
  return html`<ul class="card-list" aria-label=${caption}>
    ${rows.map(
      (row) => html`<li key=${rowKey(row)} class="row-card" ...${rowProps?.(row) ?? {}}>
      <div class="row-card-top">
        ${media.map((c) => html`<div class="row-card-media" data-col=${c.key}>${c.render(row)}</div>`)}
        <div class="row-card-heading">
          ${title.map((c) => html`<div class="row-card-title" data-col=${c.key}>${c.render(row)}</div>`)}
          ${badge.map((c) => html`<div class="row-card-badge" data-col=${c.key}>${c.render(row)}</div>`)}
        </div>
      </div>
      ${meta.length ? html`<dl class="row-card-meta">${meta.map((c) => html`<div class=${c.wide ? 'wide' : undefined} data-col=${c.key}><dt>${c.label}</dt><dd class=${c.num ? 'num' : undefined}>${c.render(row)}</dd></div>`)}</dl>` : null}
      ${actions.length ? html`<div class="row-card-actions">${actions.map((c) => html`<div data-col=${c.key}>${c.render(row)}</div>`)}</div>` : null}
    </li>`,
    )}
  </ul>`;
}
