// Loading data in a component: const { data, error, loading, reload } = useApi('/console/api/keys', query).
import { api } from '../api.js';
import { useCallback, useEffect, useRef, useState } from './html.js';

/**
 * Fetches `path` with `query` whenever either changes (an answer to an older request is dropped).
 * `poll(data)` may return milliseconds until the next silent refresh (or 0 for none). A `null` path waits.
 */
/** @param {string | null} path @param {Record<string, unknown>} [query] @param {{ poll?: (data: any) => number }} [options] */
export function useApi(path, query = {}, { poll } = {}) {
  const [state, setState] = useState({ data: null, error: null, loading: path !== null });
  const key = path === null ? null : `${path}?${JSON.stringify(query)}`;
  const generation = useRef(0);
  const timer = useRef(null);
  const pollRef = useRef(poll);
  pollRef.current = poll;

  const load = useCallback(
    async (quiet = false) => {
      clearTimeout(timer.current);
      if (key === null) return;
      const asked = ++generation.current;
      if (!quiet) setState((s) => ({ ...s, loading: true }));
      let data = null;
      try {
        data = await api(path, { query });
        if (asked !== generation.current) return;
        setState({ data, error: null, loading: false });
      } catch (error) {
        if (asked !== generation.current) return;
        setState((s) => ({ data: quiet ? s.data : null, error, loading: false }));
      }
      const next = pollRef.current?.(data);
      if (next > 0)
        timer.current = setTimeout(function tick() {
          if (document.hidden) timer.current = setTimeout(tick, next);
          else load(true);
        }, next);
    },
    [key],
  );

  useEffect(() => {
    load();
    return () => {
      generation.current++;
      clearTimeout(timer.current);
    };
  }, [load]);

  return { ...state, reload: () => load(true) };
}
