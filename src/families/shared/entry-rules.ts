import { allowsSeconds, CatalogEntry, secondsOf } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import { assertModelDuration } from './model-durations';

/** The seconds a request asks for (else the entry's default), one of the entry's: a 400 naming `duration` otherwise. */
export function durationWithinEntry(
  requested: number | undefined,
  entry: Pick<CatalogEntry, 'durations' | 'defaultDuration'>,
  model: string,
): number {
  const seconds = requested ?? entry.defaultDuration;
  if (!allowsSeconds(entry.durations, seconds)) assertModelDuration(seconds, secondsOf(entry.durations), model);
  return seconds;
}

/** The entry's `prompt_max_length`, counted in UTF-16 units as the providers count: a 400 naming `field` beyond it. */
export function assertPromptWithinEntry(
  prompt: string | undefined,
  entry: Pick<CatalogEntry, 'promptMaxLength'>,
  model: string,
  field = 'prompt',
): void {
  const max = entry.promptMaxLength;
  if (prompt !== undefined && max !== null && prompt.length > max)
    throw AppError.invalid(`${field} must be at most ${max} characters for ${model}`, field);
}

/**
 * The client's `metadata`, passed to the provider as it is: a copy, or a 400 naming `metadata.<key>`
 * for a key the gateway writes itself (`gatewayKeys` says what to use instead).
 */
export function clientMetadata(
  metadata: Record<string, unknown> | undefined,
  gatewayKeys: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const extra = { ...(metadata ?? {}) };
  const setByGateway = Object.keys(extra).find((key) => Object.hasOwn(gatewayKeys, key));
  if (setByGateway)
    throw AppError.invalid(`metadata.${setByGateway} is set by the gateway: use ${gatewayKeys[setByGateway]}`, `metadata.${setByGateway}`);
  return extra;
}
