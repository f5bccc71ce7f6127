// Customer overview: balance, and quota spent / refunded / topped up per day as a chart.
import uPlot from '/console/vendor/uplot.esm.js';
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { quota } from '../format.js';
import { fail, field, pageHeader, section } from '../ui.js';

/** Spent per day as bars and refunds as a line (left axis); the closing balance on the right axis. */
const SERIES = [
  { key: 'spent', label: 'Spent (net of refunds)', stroke: '#1d4ed8', fill: 'rgba(29, 78, 216, 0.35)', scale: 'quota', bars: true },
  { key: 'refunded', label: 'Refunded', stroke: '#b45309', scale: 'quota', dash: [6, 4] },
  { key: 'balance', label: 'Balance', stroke: '#166534', scale: 'balance' },
];

export function render(main) {
  const stats = h('div', { class: 'cards', 'aria-live': 'polite' });
  const chartBox = h('div', { class: 'chart', id: 'usage-chart' });
  const summary = h('figcaption', { class: 'muted', id: 'usage-summary' });
  const range = field('Period', { tag: 'select', name: 'days', value: '30', options: [['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days']] });
  const figure = h('figure', { class: 'card chart-wrap', style: 'margin:0', 'aria-describedby': 'usage-summary' }, chartBox, summary);
  append(main, [pageHeader('Overview'), stats, section('Usage over time', h('div', { class: 'toolbar', style: 'margin-bottom:0.75rem' }, range), figure)]);

  let plot = null;
  const resize = new ResizeObserver(() => plot?.setSize({ width: chartBox.clientWidth, height: 300 }));
  resize.observe(chartBox);

  async function load() {
    try {
      const days = Number(range.querySelector('select').value);
      const usage = await api('/console/api/usage', { query: { days, tz_offset: -new Date().getTimezoneOffset() } });
      const rows = usage.data;
      const totals = Object.fromEntries(['spent', 'refunded', 'topped_up'].map((key) => [key, rows.reduce((sum, row) => sum + row[key], 0)]));
      const taskCount = rows.reduce((sum, row) => sum + row.tasks, 0);
      fill(
        stats,
        stat('Balance', quota(usage.quota), 'balance'),
        stat('Used in total (net of refunds)', quota(usage.used_quota), 'used'),
        stat(`Spent, last ${days} days`, quota(totals.spent), 'spent'),
        stat(`Tasks, last ${days} days`, String(taskCount), 'tasks'),
      );
      summary.textContent = `Daily quota over the last ${days} days: ${quota(totals.spent)} spent net of refunds, ${quota(totals.refunded)} refunded, ${quota(totals.topped_up)} topped up; balance now ${quota(usage.quota)}.`;
      chartBox.setAttribute('role', 'img');
      chartBox.setAttribute('aria-label', summary.textContent);
      plot?.destroy();
      const bars = uPlot.paths.bars({ size: [0.6, 40] });
      plot = new uPlot(
        {
          width: chartBox.clientWidth || 600,
          height: 300,
          scales: { x: { time: true }, quota: { range: (_u, _min, max) => [0, Math.max(max, 1)] }, balance: { range: (_u, min, max) => [Math.min(0, min), Math.max(max, 1)] } },
          axes: [
            {},
            { scale: 'quota', label: 'quota per day', size: 70, values: (_u, ticks) => ticks.map((t) => quota(t)) },
            { scale: 'balance', label: 'balance', side: 1, size: 80, grid: { show: false }, values: (_u, ticks) => ticks.map((t) => quota(t)) },
          ],
          series: [
            { label: 'Day', value: (_u, t) => (t ? new Date(t * 1000).toLocaleDateString() : '') },
            ...SERIES.map((s) => ({
              label: s.label,
              scale: s.scale,
              stroke: s.stroke,
              fill: s.fill,
              width: 2,
              dash: s.dash,
              paths: s.bars ? bars : undefined,
              points: { show: !s.bars && rows.length <= 31 },
              value: (_u, v) => (v === null ? '—' : quota(v)),
            })),
          ],
        },
        [rows.map((row) => row.start), ...SERIES.map((s) => rows.map((row) => row[s.key]))],
        chartBox,
      );
    } catch (error) {
      fail(error);
    }
  }

  range.querySelector('select').addEventListener('change', load);
  load();
  return () => {
    resize.disconnect();
    plot?.destroy();
  };
}

function stat(label, value, key) {
  return h('div', { class: 'card stat', 'data-stat': key }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
}
