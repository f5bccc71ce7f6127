// Icons from lucide-static (npm), served as one SVG sprite: /console/vendor/icons.svg#<name>.
// A new icon's name must be added to /console/assets/icons.json (the sprite holds only those).
import { html } from '../lib/html.js';

export function Icon({ name, size = 18, class: extra = '', label }) {
  return html`<svg class=${`icon ${extra}`} width=${size} height=${size} aria-hidden=${label ? undefined : 'true'} role=${label ? 'img' : undefined} aria-label=${label} focusable="false">
    <use href=${`/console/vendor/icons.svg#${name}`} />
  </svg>`;
}
