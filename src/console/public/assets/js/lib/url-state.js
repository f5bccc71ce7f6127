// The route lives in the hash: #/tasks?status=failed&sort=-created_at&q=lighthouse. Filters,
// sorting, search and paging go in that query so a view can be bookmarked, shared and reloaded.
import { useCallback } from './html.js';
import { createStore, useStore } from './store.js';

function parse() {
  const raw = location.hash.replace(/^#\/?/, '');
  const at = raw.indexOf('?');
  const path = at < 0 ? raw : raw.slice(0, at);
  const query = Object.fromEntries(new URLSearchParams(at < 0 ? '' : raw.slice(at + 1)));
  return { path, query };
}

export const routeStore = createStore(parse());
window.addEventListener('hashchange', () => routeStore.set(parse()));

export function hrefFor(path, query = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const search = params.toString();
  return `#/${path}${search ? `?${search}` : ''}`;
}

/** Goes to a page (a new history entry); `replace` rewrites the current one (filters typed in). */
export function navigate(path, query = {}, { replace = false } = {}) {
  const href = hrefFor(path, query);
  if (location.hash === href) return routeStore.set(parse());
  if (replace) {
    history.replaceState(history.state, '', href);
    routeStore.set(parse());
  } else location.hash = href;
}

export const useRoute = () => useStore(routeStore);

/**
 * [state, update] for a page's query: state is `defaults` overlaid with the URL; update({ status: 'failed' })
 * writes the URL (values equal to their default are left out, and `page` goes back to 1 unless given).
 */
export function useUrlState(defaults) {
  const { path, query } = useRoute();
  const state = { ...defaults };
  for (const key of Object.keys(defaults)) if (query[key] !== undefined) state[key] = query[key];
  const update = useCallback(
    (patch, options = {}) => {
      const current = routeStore.get();
      const next = { ...current.query, ...('page' in defaults && !('page' in patch) ? { page: undefined } : {}), ...patch };
      for (const key of Object.keys(next)) if (String(next[key] ?? '') === String(defaults[key] ?? '')) delete next[key];
      navigate(current.path, next, { replace: options.replace ?? true });
    },
    // defaults are a literal per render: their keys are what matters
    [Object.keys(defaults).join(',')],
  );
  return [state, update, path];
}
