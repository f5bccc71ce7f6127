import type { BuiltinEntry, CatalogEntry } from '../catalog/catalog-entry';
import { CatalogFileDto } from '../catalog/catalog-entry.dto';
import { AppError } from '../common/errors/app-error';
import { RequestValidationPipe } from '../common/http/validation';
import { entriesOfFile } from '../families/catalog-file';
import type { FamilyDefinition } from '../families/family';

/** A feed document the gateway will not apply, and why (in words for the operator). */
export class FeedRefused extends Error {}

const validation = new RequestValidationPipe();

/**
 * A feed document's bytes -> its entries: JSON, `version` 1, and every model checked as
 * `POST /api/admin/models/import` checks it (the same DTO, unknown fields refused, then the rules
 * across fields and entries); names are checked within the document, since the merge leaves a name
 * the operator holds to the operator. Throws FeedRefused naming the first problem (`models[3].prices[0].price ...`).
 */
export async function feedEntries(
  document: Buffer,
  families: readonly FamilyDefinition[],
  stored: readonly CatalogEntry[],
): Promise<BuiltinEntry[]> {
  let body: unknown;
  try {
    body = JSON.parse(document.toString('utf8'));
  } catch {
    throw new FeedRefused('the document is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new FeedRefused('the document is not a JSON object');
  if ((body as { version?: unknown }).version !== 1)
    throw new FeedRefused(`version must be 1 (the document says ${JSON.stringify((body as { version?: unknown }).version) ?? 'nothing'})`);
  try {
    const file = (await validation.transform(body, { type: 'body', metatype: CatalogFileDto })) as CatalogFileDto;
    return entriesOfFile(file.models, families, stored, 'file');
  } catch (error) {
    if (error instanceof AppError) throw new FeedRefused(naming(error));
    throw error;
  }
}

/** Each problem with its field's whole path in front, once: `models[1].prices[0].price must not be less than 0`. */
function naming(error: AppError): string {
  const problems = error.options.fields ?? [{ param: error.options.param, message: error.message }];
  return problems.map(({ param, message }) => named(param, message)).join('; ');
}

function named(at: string | undefined, message: string): string {
  if (!at || message.startsWith(at)) return message;
  const local = at.replace(/^models\[\d+\]\.?/, '');
  return local && message.startsWith(local) ? `${at}${message.slice(local.length)}` : `${at}: ${message}`;
}
