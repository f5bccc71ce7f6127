import type { FamilyRegistry } from '../families/family-registry';
import { channelSettingsOf } from '../families/family-registry';
import type { PlatformDto } from './dto/admin-platforms.dto';

/** Every registered family as GET /api/admin/platforms shows it; the poll interval's default is its adapter's. */
export function platformViews(registry: FamilyRegistry): PlatformDto[] {
  return registry.all().map((family) => {
    const pollDefault = registry.findAdapter(family.platform)?.defaultPollIntervalMs ?? null;
    return {
      platform: family.platform,
      label: { ...family.label },
      models: [...family.models],
      models_from_channels: family.modelsFromChannels === true,
      default_base_url: family.defaultBaseUrl ?? null,
      api_key_format: family.apiKeyFormat?.shape ?? null,
      route_options: (family.routeOptions ?? []).map(({ choices, ...option }) => ({
        ...option,
        ...(choices ? { choices: [...choices] } : {}),
        label: { ...option.label },
        description: { ...option.description },
      })),
      settings: channelSettingsOf(family).map((setting) => ({
        ...setting,
        label: { ...setting.label },
        description: { ...setting.description },
        default: setting.name === 'poll_interval_ms' && setting.default === null ? pollDefault : setting.default,
      })),
    };
  });
}
