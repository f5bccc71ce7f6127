import { AppError } from '../common/errors/app-error';
import { assertSettingsMatchDefinitions } from '../families/channel-settings.validator';
import type { FamilyDefinition } from '../families/family';
import { channelSettingsOf } from '../families/family-registry';
import type { ChannelSettings, Platform } from '../upstream/channel.entity';

/** The settings as sent, without the fields the request left out. */
export function sentSettings(settings: object | undefined): ChannelSettings | undefined {
  return settings ? Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) : undefined;
}

/** The registered family of a channel's platform; a 400 naming `platform` for one no family speaks. */
export function familyOfChannelPlatform(families: readonly FamilyDefinition[], platform: Platform): FamilyDefinition {
  const family = families.find((candidate) => candidate.platform === platform);
  if (!family)
    throw AppError.invalid(
      `platform must be one of the following values: ${families.map((candidate) => candidate.platform).join(', ')}`,
      'platform',
    );
  return family;
}

/** A sent api_key has the shape of its provider's keys (Kling's `<access_key>:<secret_key>`); a 400 naming `api_key`. */
export function assertApiKeyFormat(family: FamilyDefinition, apiKey: string | undefined): void {
  const format = family.apiKeyFormat;
  if (apiKey === undefined || !format || format.pattern.test(apiKey)) return;
  throw AppError.invalid(
    `api_key must be ${format.description ?? `${format.shape} for ${family.platform} channels`}`,
    'api_key',
    'apiKeyFormat',
  );
}

/**
 * Rules across fields of a channel (after a PATCH is merged): the sent settings are ones its
 * family takes, of their types, and the channel keeps every required one; and the family's own
 * rules across its settings (family C: a control plane completely or not at all). That its models
 * are routed on its platform is the catalog's rule (ModelCatalog.assertRoutedOn).
 */
export function assertChannelInput(
  families: readonly FamilyDefinition[],
  family: FamilyDefinition,
  models: string[],
  sent: ChannelSettings | undefined,
  merged: ChannelSettings | null | undefined,
): void {
  const platform = family.platform;
  assertSettingsMatchDefinitions(platform, channelSettingsOf(family), sent, merged);
  if (merged) family.assertChannelSettings?.(merged);
}
