import { AppError } from '../common/app-error';
import type { ChannelSettings, Platform } from '../upstream/channel.entity';

/** How the public model ids of each platform begin (service interface, Versioning 2). */
const MODEL_PREFIX: Record<Platform, string> = { alpha: 'alpha/', beta: 'beta-', gamma: 'gamma-' };
/** The family C control plane works only with all three. */
const CONTROL_SETTINGS = ['control_base_url', 'access_key', 'secret_key'] as const;

/** The settings as sent, without the fields the DTO class declares but the request left out. */
export function sentSettings(settings: object | undefined): ChannelSettings | undefined {
  return settings ? (Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as ChannelSettings) : undefined;
}

/**
 * Rules across fields of a channel (after a PATCH is merged): every model belongs to the
 * channel's platform (a channel listing another family's model would never be routed to), and
 * a family C control plane is configured completely or not at all.
 */
export function assertChannelInput(platform: Platform, models: string[], settings: ChannelSettings | null | undefined): void {
  const foreign = models.find((model) => !model.toLowerCase().startsWith(MODEL_PREFIX[platform]));
  if (foreign !== undefined) throw AppError.invalid(`models: ${foreign} is not a ${platform} model (they start with ${MODEL_PREFIX[platform]})`, 'models');
  if (platform !== 'gamma' || !settings) return;
  const present = CONTROL_SETTINGS.filter((name) => typeof settings[name] === 'string' && settings[name] !== '');
  if (present.length > 0 && present.length < CONTROL_SETTINGS.length) {
    const missing = CONTROL_SETTINGS.find((name) => !present.includes(name))!;
    throw AppError.invalid(`settings.${missing} is required with ${present.map((name) => `settings.${name}`).join(' and ')} (the family C control plane needs all three)`, `settings.${missing}`);
  }
}
