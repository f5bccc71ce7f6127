// Runs a page written the old way (`render(main, ctx)` building DOM by hand) inside the new shell,
// until it is ported. The old module gets an element of its own and its cleanup runs on leave.
import { html, useEffect, useRef } from './lib/html.js';

export function LegacyPage({ module, ctx }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    let cleanup = null;
    let left = false;
    Promise.resolve(module.render(el, ctx)).then((result) => {
      if (typeof result !== 'function') return;
      if (left) result();
      else cleanup = result;
    });
    return () => {
      left = true;
      cleanup?.();
      el.replaceChildren();
    };
  }, [module]);
  return html`<div class="legacy-page" ref=${ref}></div>`;
}
