// Customer tasks: filter by status and model, live progress bars, the finished video inline.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime, flatStatusLabel, quota } from '../format.js';
import { thumbnail } from '../thumbnail.js';
import { badge, fail, field, pageHeader, pager, progressBar } from '../ui.js';

const PAGE_SIZE = 20;
const ACTIVE_POLL_MS = 1500;
const IDLE_POLL_MS = 5000;
const COLUMNS = ['Task', 'Model', 'Status', 'Progress', 'Cost', 'Created', 'Video'];

export function render(main) {
  const filters = { status: '', model: '', page: 1 };
  const statusField = field('Status', { tag: 'select', name: 'status', options: [['', 'All statuses'], ...Object.entries(flatStatusLabel)] });
  const modelField = field('Model', { tag: 'select', name: 'model', options: [['', 'All models']] });
  const tbody = h('tbody');
  const pagerBox = h('div');
  const empty = h('p', { class: 'empty', hidden: true }, 'No tasks match. Submit one with your API key: POST /v1/videos.');
  const rows = new Map();
  let timer = null;
  let stopped = false;
  // Bumped when the filters change, so an answer to an older query is dropped.
  let generation = 0;

  append(main, [
    pageHeader('Tasks', 'Your video tasks, newest first. Progress updates live; a finished video plays here.'),
    h('form', { class: 'toolbar card', 'aria-label': 'Filter tasks', onSubmit: (e) => e.preventDefault() }, statusField, modelField),
    h(
      'div',
      { class: 'table-wrap' },
      h('table', { id: 'tasks-table' }, h('caption', {}, 'Tasks'), h('thead', {}, h('tr', {}, COLUMNS.map((c) => h('th', { scope: 'col', class: c === 'Cost' ? 'num' : null }, c)))), tbody),
      empty,
    ),
    pagerBox,
  ]);

  for (const control of [statusField, modelField]) {
    control.querySelector('select').addEventListener('change', (event) => {
      filters[event.target.name] = event.target.value;
      filters.page = 1;
      reset();
    });
  }

  function reset() {
    generation++;
    for (const entry of rows.values()) entry.remove();
    rows.clear();
    refresh();
  }

  async function refresh() {
    clearTimeout(timer);
    const asked = generation;
    let active = false;
    try {
      const result = await api('/console/api/tasks', { query: { status: filters.status, model: filters.model, page: filters.page, page_size: PAGE_SIZE } });
      if (stopped || asked !== generation) return;
      const seen = new Set();
      let anchor = null;
      for (const task of result.data) {
        seen.add(task.task_id);
        active ||= task.status === 'queued' || task.status === 'in_progress';
        let entry = rows.get(task.task_id);
        if (!entry) {
          entry = taskRow(task);
          rows.set(task.task_id, entry);
          // Newer tasks go above the ones already shown; existing rows never move (a playing video would stop).
          if (anchor) anchor.after(...entry.nodes());
          else tbody.prepend(...entry.nodes());
        } else entry.update(task);
        anchor = entry.lastNode();
      }
      for (const [id, entry] of rows) {
        if (!seen.has(id)) {
          entry.remove();
          rows.delete(id);
        }
      }
      empty.hidden = result.data.length > 0;
      fill(pagerBox, pager(filters.page, PAGE_SIZE, result.total, (page) => {
        filters.page = page;
        reset();
      }));
    } catch (error) {
      fail(error);
    }
    if (!stopped) timer = setTimeout(tick, active ? ACTIVE_POLL_MS : IDLE_POLL_MS);
  }

  function tick() {
    if (document.hidden) timer = setTimeout(tick, ACTIVE_POLL_MS);
    else refresh();
  }

  api('/console/api/models')
    .then(({ data, used }) => {
      const select = modelField.querySelector('select');
      for (const model of [...new Set([...used, ...data])].sort()) select.append(h('option', { value: model }, model));
    })
    .catch(fail);
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** One task's row (plus its player row once opened), updated in place on every poll. */
function taskRow(task) {
  const statusCell = h('td');
  const progress = progressBar(task.progress, `Progress of task ${task.task_id}`);
  const videoCell = h('td');
  const row = h(
    'tr',
    { 'data-task-id': task.task_id },
    h('td', {}, h('code', {}, task.task_id)),
    h('td', {}, task.model),
    statusCell,
    h('td', {}, progress),
    h('td', { class: 'num' }, quota(task.quota)),
    h('td', {}, dateTime(task.created_at)),
    videoCell,
  );
  let playerRow = null;
  let playButton = null;
  let poster = null;
  let current = task;

  function togglePlayer(button) {
    if (playerRow) {
      playerRow.querySelector('video')?.pause();
      playerRow.remove();
      playerRow = null;
      button.setAttribute('aria-expanded', 'false');
      button.textContent = 'Play';
      return;
    }
    const src = `/console/api/tasks/${encodeURIComponent(current.task_id)}/content`;
    const video = h('video', { controls: true, preload: 'metadata', playsinline: true, src, 'aria-label': `Video of task ${current.task_id}` });
    playerRow = h(
      'tr',
      { class: 'detail-row', id: `player-${current.task_id}` },
      h('td', { colspan: COLUMNS.length }, video, h('p', {}, h('a', { href: src, download: `${current.task_id}.mp4` }, 'Download the video'), current.size ? ` · ${current.size}` : '')),
    );
    row.after(playerRow);
    button.setAttribute('aria-expanded', 'true');
    button.textContent = 'Hide video';
    video.focus();
  }

  function update(next) {
    current = next;
    row.dataset.status = next.status;
    fill(statusCell, badge(flatStatusLabel[next.status] ?? next.status, next.status), next.fail_reason ? h('div', { class: 'error-text' }, `Reason: ${next.fail_reason}`) : null);
    progress.update(next.progress);
    if (next.has_video && !playButton) {
      playButton = h('button', { type: 'button', class: 'small', 'aria-expanded': 'false', 'aria-controls': `player-${next.task_id}`, onClick: () => togglePlayer(playButton) }, 'Play');
      fill(videoCell, h('div', { class: 'video-cell' }, playButton));
    } else if (!next.has_video) fill(videoCell, next.status === 'failed' && next.quota > 0 ? 'Refunded' : '—');
    // The poster frame appears once the video is archived (a later poll says so).
    if (next.has_thumbnail && playButton && !poster) {
      poster = thumbnail(`/console/api/tasks/${encodeURIComponent(next.task_id)}/thumbnail`, `First frames of task ${next.task_id}`);
      playButton.before(poster);
    }
  }

  update(task);
  return {
    update,
    nodes: () => (playerRow ? [row, playerRow] : [row]),
    lastNode: () => playerRow ?? row,
    remove() {
      row.remove();
      playerRow?.remove();
    },
  };
}
