import { AppError } from '../../common/app-error';
import type { ChannelSettings } from '../../upstream/channel.entity';

/** The family C control plane works only with all three. */
const CONTROL_SETTINGS = ['control_base_url', 'access_key', 'secret_key'] as const;

/** A family C channel's control plane is configured completely or not at all. */
export function assertGammaChannelSettings(settings: ChannelSettings): void {
  const present = CONTROL_SETTINGS.filter((name) => typeof settings[name] === 'string' && settings[name] !== '');
  if (present.length > 0 && present.length < CONTROL_SETTINGS.length) {
    const missing = CONTROL_SETTINGS.find((name) => !present.includes(name))!;
    throw AppError.invalid(`settings.${missing} is required with ${present.map((name) => `settings.${name}`).join(' and ')} (the family C control plane needs all three)`, `settings.${missing}`);
  }
}
