// uPlot wrapped as a component: category x-axis (days, models), bars and lines on ONE shared y-scale,
// an HTML legend with swatches that shows the hovered point's values (totals otherwise), theme colours.
import uPlot from '/console/vendor/uplot.esm.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { useLang } from '../lib/i18n.js';
import { cssVar, useTheme } from '../lib/theme.js';
import { num } from '../lib/format.js';

/**
 * <Chart label="summary for screen readers" categories={['Mar 1', ...]} height={260}
 *   series={[{ label, color: '--chart-1', kind: 'bar' | 'line', values: [...], plot?: [...], total: 'sum' | 'last' }]}
 *   format={(v) => text} />
 * Every series shares the left axis, so their sizes compare honestly. The x-scale runs half a
 * category past either end, so the first and last (today's) bars are drawn whole.
 */
export function Chart({ label, categories, axisLabels, series, height = 260, format = num, id }) {
  const box = useRef(null);
  const plot = useRef(null);
  const [hover, setHover] = useState(null);
  const theme = useTheme();
  const lang = useLang();

  useEffect(() => {
    const el = box.current;
    const n = categories.length;
    const bars = series.filter((s) => s.kind === 'bar');
    const colors = series.map((s) => cssVar(s.color) || s.color);
    const muted = cssVar('--muted');
    const grid = cssVar('--grid');
    const slot = (i) => (bars.length === 2 ? (bars.indexOf(series[i]) === 0 ? -1 : 1) : 0);
    const axisFont = '12px system-ui, sans-serif';
    /** @type {import('uplot').Options} */
    const opts = {
      width: el.clientWidth || 600,
      height,
      legend: { show: false },
      cursor: { points: { size: 7 }, drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: () => /** @type {[number, number]} */ ([-0.5, n - 0.5]) },
        y: { range: (_u, min, max) => /** @type {[number, number]} */ ([Math.min(0, min), max > 0 ? max * 1.1 : 1]) },
      },
      axes: [
        {
          stroke: muted,
          font: axisFont,
          grid: { show: false },
          ticks: { stroke: grid },
          incrs: [1, 2, 3, 5, 7, 10, 14, 15, 30, 60],
          space: 56,
          // axisLabels (optional): shorter names for the axis; the legend names the hovered category in full.
          values: (_u, splits) =>
            splits.map((i) => (Number.isInteger(i) && categories[i] !== undefined ? (axisLabels ?? categories)[i] : '')),
        },
        {
          stroke: muted,
          font: axisFont,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          size: (_u, values) => (values ? Math.max(...values.map((v) => String(v).length)) * 7.5 + 14 : 40),
          values: (_u, splits) => splits.map((v) => format(v)),
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: colors[i],
          width: s.kind === 'bar' ? 0 : 2,
          fill: s.kind === 'bar' ? colors[i] : undefined,
          paths:
            s.kind === 'bar'
              ? uPlot.paths.bars({ size: [bars.length === 2 ? 0.38 : 0.62, bars.length === 2 ? 22 : 40], align: slot(i), gap: 1 })
              : undefined,
          points: { show: s.kind !== 'bar' && n <= 31, size: 5, fill: colors[i] },
          dash: s.dash,
        })),
      ],
      hooks: { setCursor: [(u) => setHover(u.cursor.idx ?? null)] },
    };
    // `plot` (when given) is what is drawn, `values` what the legend reads: a stacked chart draws running sums.
    const data = [
      categories.map((_c, i) => i),
      ...series.map((s) => (s.plot ?? s.values).map((v) => (v === null || v === undefined ? null : v))),
    ];
    plot.current = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [
    JSON.stringify(categories),
    JSON.stringify(axisLabels),
    JSON.stringify(series.map((s) => [s.label, s.values, s.plot, s.color, s.kind])),
    height,
    theme,
    lang,
  ]);

  return html`<figure class="chart" id=${id}>
    <div class="chart-canvas" ref=${box} role="img" aria-label=${label}></div>
    <figcaption class="legend">
      ${hover !== null ? html`<span class="legend-at">${categories[hover]}</span>` : null}
      ${series.map((s) => {
        const value =
          hover !== null
            ? s.values[hover]
            : s.total === 'last'
              ? s.values[s.values.length - 1]
              : s.values.reduce((a, b) => a + (b ?? 0), 0);
        // A point with no value (a day before the account existed) reads as a dash, never as 0.
        return html`<span class="legend-item"><span class=${`swatch ${s.kind === 'bar' ? 'bar' : 'line'}`} style=${`--swatch:var(${s.color})`}></span>${s.label}<strong>${value === null || value === undefined ? '–' : format(value)}</strong></span>`;
      })}
    </figcaption>
  </figure>`;
}
