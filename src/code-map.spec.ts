import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * docs/code-map.md is written by hand; this fails once it no longer says what the code is: a folder
 * of src/ it does not describe, the family folders, the global modules.
 */
const SRC = __dirname;
const CODE_MAP = readFileSync(join(SRC, '..', 'docs', 'code-map.md'), 'utf8');

/** The map's block, as entries: a line starting at the margin (`src/auth  ...`) and the indented lines under it. */
function entries(): Map<string, string> {
  const block = /^```\n([\s\S]*?)^```/m.exec(CODE_MAP)![1];
  const found = new Map<string, string>();
  let entry: string | null = null;
  for (const line of block.split('\n')) {
    if (/^\S/.test(line)) found.set((entry = line.split(/\s+/)[0]), line);
    else if (entry) found.set(entry, `${found.get(entry)}\n${line}`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** `@Global()` modules, by class name, with the folder of src/ they are in. */
function globalModules(): { name: string; folder: string }[] {
  return sourceFiles(SRC).flatMap((file) => {
    const found = /@Global\(\)[\s\S]*?export class (\w+)/.exec(readFileSync(file, 'utf8'));
    return found ? [{ name: found[1], folder: `src/${relative(SRC, file).split(/[\\/]/)[0]}` }] : [];
  });
}

const folders = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('docs/code-map.md says what the code is', () => {
  it('describes every folder of src/', () => {
    const described = entries();
    expect(folders(SRC).filter((folder) => !described.has(`src/${folder}`))).toEqual([]);
  });

  it('names the family folders, every one and no other', () => {
    const families = folders(join(SRC, 'families')).filter((folder) => existsSync(join(SRC, 'families', folder, `${folder}.family.ts`)));
    expect(families.length).toBeGreaterThan(0);
    const listed =
      /^\s+((?:[a-z0-9-]+\/\s*)+)$/m
        .exec(entries().get('src/families') ?? '')?.[1]
        .trim()
        .split(/\s+/) ?? [];
    expect(listed.map((folder) => folder.replace(/\/$/, '')).sort()).toEqual(families.sort());
  });

  it('names the global modules, in its prose and on their folders, every one and no other', () => {
    const globals = globalModules();
    expect(globals.length).toBeGreaterThan(0);
    const said = /Only (.+?) are global \(`@Global\(\)`\)/.exec(CODE_MAP)?.[1].split(/, | and /) ?? [];
    expect(said.sort()).toEqual(globals.map((module) => module.name).sort());
    const marked = [...entries()].filter(([, text]) => text.includes('(global)')).map(([folder]) => folder);
    expect(marked.sort()).toEqual([...new Set(globals.map((module) => module.folder))].sort());
  });
});
