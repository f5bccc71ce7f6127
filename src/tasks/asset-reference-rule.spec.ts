import { refuseAssetReferences } from './asset-reference-rule';

/** The earlier implementation, the reference. */
function reference(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.trim().toLowerCase().startsWith('asset://') ? path : null;
  if (depth >= 8 || typeof value !== 'object' || value === null) return null;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [`${path}[${i}]`, item])
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
  for (const [childPath, child] of entries) {
    const found = reference(child, childPath, depth + 1);
    if (found) return found;
  }
  return null;
}

function refused(body: Record<string, unknown>): string | null {
  try {
    refuseAssetReferences(body, 'm', ['a/b']);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const deep = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { n: deep(levels - 1, leaf) });

describe('refuseAssetReferences', () => {
  it.each<Record<string, unknown>>([
    { prompt: 'a cat', duration: 5 },
    { prompt: '  ASSET://x ' },
    { prompt: 'asset:/', b: 'Asset://y' },
    { prompt: 'asset://   ' },
    { prompt: ' \u0130asset://x', other: 'x asset://' },
    { media: [{ url: 'https://x' }, { url: '\tasset://id' }] },
    { metadata: { list: [[1, 'asset://z']] } },
    { n: deep(6, 'asset://d') },
    { n: deep(7, 'asset://d') },
    { n: deep(8, 'asset://d') },
    { first: { a: 'asset://1' }, second: 'asset://2' },
    { '': 'asset://empty-key', x: null, y: true },
  ])('names the same field as before: %j', (body) => {
    const field = reference(body, '');
    expect(refused(body)).toBe(field && `${field}: asset:// references can only be used with a/b (model m)`);
  });
});
