import { AppError } from '../common/errors/app-error';

const MAX_DEPTH = 8;

/** The first `asset://` string in a JSON value, with its dotted path (a child's path is spelled out only where it is needed). */
function findAssetReference(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return isAssetReference(value) ? path : null;
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = childReference(value[i] as unknown, () => `${path}[${i}]`, depth);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const found = childReference((value as Record<string, unknown>)[key], () => (path ? `${path}.${key}` : key), depth);
    if (found) return found;
  }
  return null;
}

function childReference(child: unknown, path: () => string, depth: number): string | null {
  if (typeof child === 'string') return isAssetReference(child) ? path() : null;
  if (typeof child !== 'object' || child === null) return null;
  return findAssetReference(child, path(), depth + 1);
}

/**
 * `text.trim().toLowerCase().startsWith('asset://')` without copying a long text twice: only the
 * first 8 characters after the leading white space can match (no character lower-cases to one of
 * `asset://` but those letters themselves, and one that grows when lower-cased cannot match).
 */
function isAssetReference(text: string): boolean {
  const start = text.trimStart();
  return start.length >= 8 && start.slice(0, 8).toLowerCase() === 'asset://';
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
