import { AppError } from '../common/app-error';
import { familyOfModel, familyOfPlatform } from '../families/family-registry';
import type { ChannelSettings, Platform } from '../upstream/channel.entity';

/** The settings as sent, without the fields the DTO class declares but the request left out. */
export function sentSettings(settings: object | undefined): ChannelSettings | undefined {
  return settings ? (Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as ChannelSettings) : undefined;
}

/**
 * Rules across fields of a channel (after a PATCH is merged): every model belongs to the
 * channel's platform (a channel listing another family's model would never be routed to, also
 * on a platform whose models the operator names), and
 * the family's own rules on its settings (family C: a control plane completely or not at all).
 */
export function assertChannelInput(platform: Platform, models: string[], settings: ChannelSettings | null | undefined): void {
  const family = familyOfPlatform(platform);
  const prefix = family?.modelPrefix;
  const foreign = prefix === undefined ? undefined : models.find((model) => !model.toLowerCase().startsWith(prefix));
  if (foreign !== undefined) throw AppError.invalid(`models: ${foreign} is not a ${platform} model (they start with ${prefix})`, 'models');
  // A family whose models are the operator's cannot take a name another family owns: it would stay that family's.
  const owned = prefix === undefined ? models.map((model) => ({ model, owner: familyOfModel(model)?.family })).find(({ owner }) => owner && owner.platform !== platform) : undefined;
  if (owned) throw AppError.invalid(`models: ${owned.model} is a ${owned.owner!.platform} model; a ${platform} channel cannot serve it`, 'models');
  if (settings) family?.assertChannelSettings?.(settings);
}
