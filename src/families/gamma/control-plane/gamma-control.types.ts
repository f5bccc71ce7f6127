import type { ChannelEntity } from '../../../upstream/channel.entity';
import type { RateLimit } from '../../../shared-state/spaced-rate-limiter.service';

/** Control plane (verification and assets) of the family C provider: actions, limits, payloads. */
export const CONTROL_API_VERSION = '2024-01-01';

export type GammaControlAction =
  'CreateVisualValidateSession' | 'GetVisualValidateResult' | 'CreateAsset' | 'GetAsset' | 'ListAssets' | 'DeleteAsset';

const perSecond = (limit: number): RateLimit => ({ limit, windowMs: 1000 });

/** The provider's published per-action rate limits (per account). */
export const CONTROL_ACTION_LIMITS: Record<GammaControlAction, RateLimit> = {
  CreateVisualValidateSession: perSecond(3),
  GetVisualValidateResult: perSecond(3),
  CreateAsset: { limit: 300, windowMs: 60_000 },
  GetAsset: perSecond(100),
  ListAssets: perSecond(10),
  DeleteAsset: perSecond(10),
};

export interface ControlSettings {
  baseUrl: string;
  accessKey: string;
  secretKey: string;
  region: string;
  projectName: string;
}

/** The control plane settings of a channel, or null when it has none (data plane only). */
export function controlSettingsOf(channel: ChannelEntity): ControlSettings | null {
  const s = channel.settings ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const baseUrl = text(s.control_base_url);
  const accessKey = text(s.access_key);
  const secretKey = text(s.secret_key);
  if (!baseUrl || !accessKey || !secretKey) return null;
  return { baseUrl, accessKey, secretKey, region: text(s.region) ?? 'cn-beijing', projectName: text(s.project_name) ?? 'default' };
}

export interface ProviderError {
  Code: string;
  Message: string;
}

export interface CreateSessionResult {
  BytedToken: string;
  H5Link: string;
  CallbackURL?: string;
}

export interface ValidateResult {
  GroupId?: string;
}

export type ProviderAssetStatus = 'Processing' | 'Active' | 'Failed';

export interface ProviderAsset {
  Id: string;
  GroupId?: string;
  Status: ProviderAssetStatus;
  AssetType?: string;
  URL?: string;
  Name?: string;
  CreateTime?: string | number;
  Error?: ProviderError | null;
}

export interface ListAssetsResult {
  Items: ProviderAsset[];
  TotalCount: number;
}
