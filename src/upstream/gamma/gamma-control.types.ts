import type { ChannelEntity } from '../channel.entity';

/** Control plane (verification and assets) of the family C provider: actions, limits, payloads. */
export const CONTROL_API_VERSION = '2024-01-01';

export type GammaControlAction =
  | 'CreateVisualValidateSession'
  | 'GetVisualValidateResult'
  | 'CreateAsset'
  | 'GetAsset'
  | 'ListAssets'
  | 'DeleteAsset';

/** The provider's published per-action rate limits (calls per second, per account). */
export const CONTROL_ACTION_QPS: Record<GammaControlAction, number> = {
  CreateVisualValidateSession: 3,
  GetVisualValidateResult: 3,
  CreateAsset: 5, // 300 per minute
  GetAsset: 100,
  ListAssets: 10,
  DeleteAsset: 10,
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
