import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The top-level modules of src/ stack as layers (docs/code-map.md): no two import each other, types
 * included, and the ground (`common`, then `config`, then `database`) imports nothing above it.
 */
const SRC = resolve(__dirname);
const GROUND: Record<string, readonly string[]> = { common: [], config: ['common'], database: ['common', 'config'] };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const moduleOf = (path: string): string => relative(SRC, path).split(sep)[0].replace(/\.ts$/, '');

/** module -> module -> the first import line that makes the edge (`file -> specifier`). */
function moduleImports(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gs)) {
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(SRC + sep)) continue;
      const [from, to] = [moduleOf(file), moduleOf(target)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${relative(SRC, file)} -> ${specifier}`);
    }
  }
  return edges;
}

/** Each cycle of modules (a strongly connected component of more than one), as its members. */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the modules of src/ stack as layers', () => {
  const edges = moduleImports();

  it('no two modules import each other, directly or around a circle', () => {
    const described = cycles(edges).map((members) =>
      members.flatMap((from) => members.filter((to) => edges.get(from)?.has(to)).map((to) => edges.get(from)!.get(to)!)),
    );
    expect(described).toEqual([]);
  });

  it.each(Object.entries(GROUND))('%s imports only the ground below it', (module, below) => {
    const above = [...(edges.get(module)?.entries() ?? [])].filter(([to]) => !below.includes(to)).map(([, line]) => line);
    expect(above).toEqual([]);
  });
});
