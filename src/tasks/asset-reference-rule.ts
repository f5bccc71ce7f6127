import { AppError } from '../common/errors/app-error';

const MAX_DEPTH = 8;

/** The first `asset://` string in a JSON value, with its dotted path. */
function findAssetReference(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.trim().toLowerCase().startsWith('asset://') ? path : null;
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return null;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [`${path}[${i}]`, item])
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
  for (const [childPath, child] of entries) {
    const found = findAssetReference(child, childPath, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Verified portrait assets belong to the families that take them: an `asset://` reference anywhere
 * in a body for another model is a 400 naming the field, before any family reads the body.
 */
export function refuseAssetReferences(body: Record<string, unknown>, model: string, assetModels: readonly string[]): void {
  const field = findAssetReference(body, '');
  if (!field) return;
  const models = assetModels;
  throw AppError.invalid(`${field}: asset:// references can only be used with ${models.join(' and ')} (model ${model})`, field);
}
