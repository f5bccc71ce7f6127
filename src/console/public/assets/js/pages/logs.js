// Customer logs: consume, refund (with task and reason), top-up; filter by type and date; totals.
import { renderLedgerPage } from '../ledger-page.js';

export function render(main) {
  renderLedgerPage(main, {
    endpoint: '/console/api/logs',
    title: 'Logs',
    intro: 'Every change of your balance. A failed task is refunded automatically; its refund names the task and the reason.',
  });
}
