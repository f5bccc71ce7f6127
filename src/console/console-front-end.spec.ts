import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildIconSprite, VENDOR_FILES } from './console-vendor-files';

/** The console's front end is plain ES modules with no build step: these checks stand in for a compiler. */
const PUBLIC = join(__dirname, 'public', 'assets');
const read = (path: string) => readFileSync(path, 'utf8');
/** A module's code without its comments (the guide in main.js shows made-up keys). */
const code = (path: string) =>
  read(path)
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join('\n');
/** A language's messages as the console loads them: the main catalog and the admin pages' own (lib/i18n.js merges both). */
const messages = (lang: string) =>
  Object.assign({}, ...[`${lang}.json`, `admin.${lang}.json`].map((file) => JSON.parse(read(join(PUBLIC, 'i18n', file))))) as Record<
    string,
    string
  >;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.js') ? [path] : [];
  });
}

describe('console front end', () => {
  it('has every message in English and Simplified Chinese, with the same placeholders', () => {
    const en = messages('en');
    const zh = messages('zh-CN');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en)) expect({ key, zh: placeholders(zh[key]) }).toEqual({ key, zh: placeholders(en[key]) });
  });

  it('asks only for message keys that exist', () => {
    const en = messages('en');
    const missing: string[] = [];
    for (const file of sources(join(PUBLIC, 'js'))) {
      // Literal keys only: t('tasks.title'); keys built at run time (`status.${s}`) are checked by the browser tests.
      for (const match of code(file).matchAll(/\bt\('([\w.-]+)'/g))
        if (!(match[1] in en)) missing.push(`${file.slice(PUBLIC.length)}: ${match[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('serves preact hooks pointing at the served preact, never at a bare "preact" a browser cannot resolve', () => {
    const hooks = VENDOR_FILES['preact-hooks.mjs'];
    const served = hooks.rewrite!(read(hooks.path));
    expect(served).toContain('from"./preact.mjs"');
    expect(served).not.toMatch(/from\s*["']preact["']/);
    for (const file of Object.values(VENDOR_FILES)) expect(read(file.path).length).toBeGreaterThan(0);
  });

  it('builds one sprite holding every icon the console names', () => {
    const names = JSON.parse(read(join(PUBLIC, 'icons.json'))) as string[];
    const sprite = buildIconSprite(names);
    for (const name of names) expect(sprite).toContain(`<symbol id="${name}"`);
    const used = new Set<string>();
    for (const file of sources(join(PUBLIC, 'js')))
      for (const match of read(file).matchAll(/(?:\bicon=|<\$\{Icon\} name=)(?:"|\$\{')([a-z0-9-]+)/g)) used.add(match[1]);
    expect([...used].filter((name) => !names.includes(name))).toEqual([]);
  });
});
