// A task's poster frame: made when its video is archived, so it may not exist yet (404); hidden until it loads,
// and asked for again (at most every 5 s, from the page's own polling) until it does.
import { h } from './dom.js';

const RETRY_MS = 5000;

export function thumbnail(src, label) {
  let tried = 0;
  const img = h('img', { class: 'thumbnail', alt: label, width: 96, height: 54, loading: 'lazy', decoding: 'async', hidden: true });
  img.addEventListener('load', () => {
    img.hidden = false;
    img.dataset.loaded = '1';
  });
  img.addEventListener('error', () => (img.hidden = true));
  const load = () => {
    if (img.dataset.loaded || Date.now() - tried < RETRY_MS) return;
    tried = Date.now();
    img.src = `${src}${src.includes('?') ? '&' : '?'}t=${tried}`;
  };
  load();
  return { img, retry: load };
}
