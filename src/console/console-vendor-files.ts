import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Browser libraries of the console, from npm, served by the gateway itself (no CDN, no build step).
 * ES modules import each other by URL: preact's hooks say `from "preact"`, which a browser cannot
 * resolve without an import map (an inline script the CSP forbids), so it is pointed at our URL.
 */
function packageDir(name: string): string {
  // Not every package exports its package.json: walk up from its entry point instead.
  let dir = dirname(require.resolve(name));
  while (
    !existsSync(join(dir, 'package.json')) ||
    (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name
  ) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package ${name} not found`);
    dir = parent;
  }
  return dir;
}

interface VendorFile {
  path: string;
  type: string;
  rewrite?: (text: string) => string;
}

export const VENDOR_FILES: Record<string, VendorFile> = {
  'uplot.esm.js': { path: join(dirname(require.resolve('uplot')), 'uPlot.esm.js'), type: 'text/javascript' },
  'uplot.min.css': { path: join(dirname(require.resolve('uplot')), 'uPlot.min.css'), type: 'text/css' },
  'preact.mjs': { path: join(packageDir('preact'), 'dist', 'preact.mjs'), type: 'text/javascript' },
  'preact-hooks.mjs': {
    path: join(packageDir('preact'), 'hooks', 'dist', 'hooks.mjs'),
    type: 'text/javascript',
    rewrite: (text) => text.replace(/from\s*(["'])preact\1/g, 'from"./preact.mjs"'),
  },
  'htm.mjs': { path: join(packageDir('htm'), 'dist', 'htm.mjs'), type: 'text/javascript' },
};

/**
 * One SVG sprite of the lucide icons the console uses (names listed in public/assets/icons.json):
 * `<svg><use href="/console/vendor/icons.svg#copy"/></svg>` draws in the text colour.
 */
export function buildIconSprite(names: string[]): string {
  const iconsDir = join(packageDir('lucide-static'), 'icons');
  const symbols = names.map((name) => {
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad icon name ${name}`);
    const svg = readFileSync(join(iconsDir, `${name}.svg`), 'utf8');
    const inner = svg
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/^[\s\S]*?<svg[^>]*>/, '')
      .replace(/<\/svg>\s*$/, '');
    return `<symbol id="${name}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${inner.trim()}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>`;
}
