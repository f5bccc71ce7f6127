import { AppError } from '../../common/errors/app-error';
import type { ChannelSettings } from '../../upstream/channel.entity';
import type { ChannelSettingDefinition } from '../channel-setting-definition';

const CONTROL_PLANE_HELP = {
  en: 'Family C control plane: real-person verification and portrait assets.',
  'zh-CN': 'C 系控制面：真人认证与人像素材。',
};

/** A family C channel's own settings: its control plane (verification and portrait assets), all optional. */
export const GAMMA_CHANNEL_SETTINGS: readonly ChannelSettingDefinition[] = [
  {
    name: 'control_base_url',
    type: 'url',
    default: null,
    required: false,
    secret: false,
    max: 512,
    label: { en: 'Control plane URL (family C)', 'zh-CN': '控制面 URL（C 系）' },
    description: CONTROL_PLANE_HELP,
  },
  {
    name: 'access_key',
    type: 'string',
    default: null,
    required: false,
    secret: true,
    max: 256,
    label: { en: 'Access key (family C)', 'zh-CN': 'Access Key（C 系）' },
    description: CONTROL_PLANE_HELP,
  },
  {
    name: 'secret_key',
    type: 'string',
    default: null,
    required: false,
    secret: true,
    max: 256,
    label: { en: 'Secret key (family C)', 'zh-CN': 'Secret Key（C 系）' },
    description: CONTROL_PLANE_HELP,
  },
  {
    name: 'region',
    type: 'string',
    default: 'cn-beijing',
    required: false,
    secret: false,
    max: 64,
    label: { en: 'Region (family C)', 'zh-CN': '区域（C 系）' },
    description: { en: 'Empty: cn-beijing.', 'zh-CN': '留空：cn-beijing。' },
  },
  {
    name: 'project_name',
    type: 'string',
    default: 'default',
    required: false,
    secret: false,
    max: 128,
    label: { en: 'Project (family C)', 'zh-CN': '项目（C 系）' },
    description: { en: 'Empty: default.', 'zh-CN': '留空：default。' },
  },
];

/** The family C control plane works only with all three. */
const CONTROL_SETTINGS = ['control_base_url', 'access_key', 'secret_key'] as const;

/** A family C channel's control plane is configured completely or not at all. */
export function assertGammaChannelSettings(settings: ChannelSettings): void {
  const present = CONTROL_SETTINGS.filter((name) => typeof settings[name] === 'string' && settings[name] !== '');
  if (present.length > 0 && present.length < CONTROL_SETTINGS.length) {
    const missing = CONTROL_SETTINGS.find((name) => !present.includes(name))!;
    throw AppError.invalid(
      `settings.${missing} is required with ${present.map((name) => `settings.${name}`).join(' and ')} (the family C control plane needs all three)`,
      `settings.${missing}`,
    );
  }
}

/** The control plane's credentials, kept out of anything its answers are turned into. */
export const GAMMA_SECRET_SETTINGS = GAMMA_CHANNEL_SETTINGS.filter((setting) => setting.secret).map((setting) => setting.name);
