// A finished task's poster frame (made when its video was archived; only asked for once the task says it exists).
import { h } from './dom.js';

export function thumbnail(src, label) {
  const img = h('img', { class: 'thumbnail', src, alt: label, width: 96, height: 54, loading: 'lazy', decoding: 'async' });
  img.addEventListener('error', () => (img.hidden = true));
  return img;
}
