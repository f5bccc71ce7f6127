import { AppError } from '../common/errors/app-error';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../common/http/json-depth';
import { findUnstorableText } from '../common/http/storable-text';
import type { SubmitInput, UploadedPart } from '../families/family';
import { FAMILIES } from '../families/family-registry';

// A multipart field is always a string: each family names the metadata keys that are numbers or booleans for it.
const NUMERIC_METADATA = [...new Set(FAMILIES.flatMap((family) => family.multipartMetadata?.numbers ?? []))];
const BOOLEAN_METADATA = [...new Set(FAMILIES.flatMap((family) => family.multipartMetadata?.booleans ?? []))];

/**
 * Brings JSON and multipart submits to one shape: multipart fields arrive as strings (numbers,
 * booleans and a JSON `metadata` are converted back). OpenAI's `seconds`, text on both forms, is the
 * submit pipeline's (SubmitCommonFieldsDto), as on the unified surface.
 */
export function normalizeSubmitBody(raw: unknown, inputReferenceFile: UploadedPart | undefined, multipart: boolean): SubmitInput {
  const body: Record<string, unknown> =
    raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
  if (multipart) {
    body.duration = toNumber(body.duration);
    if (typeof body.metadata === 'string') body.metadata = parseJsonObject(body.metadata);
    if (typeof body.images === 'string') body.images = [body.images];
    if (body.metadata && typeof body.metadata === 'object') {
      const metadata = { ...(body.metadata as Record<string, unknown>) };
      for (const key of NUMERIC_METADATA) metadata[key] = toNumber(metadata[key]);
      for (const key of BOOLEAN_METADATA) metadata[key] = toBoolean(metadata[key]);
      body.metadata = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined));
    }
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  }
  return { form: 'flat', body, inputReferenceFile, warnings: [] };
}

function toNumber(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

function toBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function parseJsonObject(text: string): Record<string, unknown> {
  // Bounded like a JSON body, so that deep nesting is a 400 here too, never a stack overflow later.
  if (jsonNestsDeeperThan(Buffer.from(text), MAX_JSON_DEPTH))
    throw AppError.invalid(`metadata is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`, 'metadata');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw AppError.invalid('metadata must be a JSON object', 'metadata');
  // The field was checked as text; what its JSON escapes (`\u0000`) decode to is checked here.
  const found = findUnstorableText(value, 'metadata');
  if (found) throw AppError.invalid(found.message, found.field);
  return value as Record<string, unknown>;
}
