// Admin: make redemption codes worth quota (shown once, all together, to copy), and the codes made with their state.
import { api } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { useSubmit } from '../components/form.js';
import { SecretOnce } from '../components/secret-once.js';
import { Badge, Button, Card, ErrorNote, Field, PageHeader, Pager } from '../components/ui.js';
import { dateTime, dayToUnix, quota } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';

const PAGE_SIZE = 50;

export function AdminRedemptionCodes() {
  const [query, setQuery] = useUrlState({ page: '1' });
  const page = Math.max(1, Number(query.page) || 1);
  const codes = useApi('/api/admin/redemption-codes', { page, page_size: PAGE_SIZE });
  const [made, setMade] = useState(null);
  const create = useSubmit(async (values, form) => {
    const body = { quota: Number(values.quota), count: Number(values.count) };
    if (values.expires_at) body.expires_at = dayToUnix(values.expires_at, true);
    const { data } = await api('/api/admin/redemption-codes', { method: 'POST', body });
    form.reset();
    setMade(data);
    codes.reload();
  });
  const columns = [
    {
      key: 'code_hint',
      label: t('codes.col.code'),
      card: 'title',
      render: (c) => html`<code>…${c.code_hint}</code> <span class="muted small">#${c.id}</span>`,
    },
    { key: 'quota', label: t('codes.col.quota'), num: true, render: (c) => quota(c.quota) },
    { key: 'state', label: t('codes.col.state'), render: (c) => html`<${Badge} status=${c.state} />` },
    { key: 'created_at', label: t('codes.col.created'), render: (c) => dateTime(c.created_at) },
    { key: 'expires_at', label: t('codes.col.expires'), render: (c) => (c.expires_at ? dateTime(c.expires_at) : t('codes.never')) },
    {
      key: 'redeemed_by',
      label: t('codes.col.redeemed'),
      render: (c) => (c.redeemed_by ? t('codes.redeemedBy', { user: c.redeemed_by, at: dateTime(c.redeemed_at) }) : '—'),
    },
  ];
  return html`<div class="codes-page">
    <${PageHeader} title=${t('codes.title')} intro=${t('codes.intro')} />
    ${
      made
        ? html`<${SecretOnce} id="new-codes" title=${t('codes.made', { count: made.length, quota: quota(made[0].quota) })} what=${t('codes.secretLabel')} value=${made.map((c) => c.code).join('\n')} multiline onDone=${() => setMade(null)} />`
        : null
    }
    <${Card} title=${t('codes.create')}>
      <form id="create-codes-form" class="stack" aria-label=${t('codes.create')} onSubmit=${create.onSubmit}>
        <div class="grid-form">
          <${Field} label=${t('codes.quota')} name="quota" type="number" min="1" step="1" required inputmode="numeric" />
          <${Field} label=${t('codes.count')} name="count" type="number" min="1" max="1000" step="1" required value="10" inputmode="numeric" />
          <${Field} label=${t('codes.expires')} name="expires_at" type="date" help=${t('codes.expiresHelp')} />
        </div>
        <div><${Button} type="submit" icon="plus" disabled=${create.busy}>${t('codes.createButton')}<//></div>
      </form>
    <//>
    <${Card} title=${t('codes.list')} class="flush list-card">
      <${ErrorNote} error=${codes.error} onRetry=${codes.reload} />
      ${codes.data ? html`<${DataTable} caption=${t('codes.list')} columns=${columns} rows=${codes.data.data} rowKey=${(c) => c.id} rowProps=${(c) => ({ 'data-code-id': c.id, 'data-state': c.state })} empty=${t('codes.none')} emptyIcon="ticket" />` : null}
    <//>
    ${codes.data ? html`<${Pager} page=${page} pageSize=${PAGE_SIZE} total=${codes.data.total} onPage=${(p) => setQuery({ page: String(p) })} />` : null}
  </div>`;
}
