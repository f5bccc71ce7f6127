// Admin: the whole ledger, filterable by user, type, task and date, with totals.
import { renderLedgerPage } from '../ledger-page.js';

export function render(main) {
  renderLedgerPage(main, {
    endpoint: '/api/admin/logs',
    title: 'All logs',
    intro: "Top-ups, charges, refunds and adjustments of every account, and the holds of submits (a hold the provider refused is released; customers see neither).",
    admin: true,
  });
}
