import { CONTROL_ERROR_REASONS } from '../families/gamma/control-plane/gamma-control.client';
import type { ProviderAsset } from '../families/gamma/control-plane/gamma-control.types';
import { describeCode, providerCode } from '../upstream/provider-text';
import type { AssetError, AssetStatus } from './entities/verification-asset.entity';

/** The provider's asset state in the gateway's terms (null while it is still processing); its error by code, never its message. */
export function settledStatusOf(asset: ProviderAsset): { status: AssetStatus; error: AssetError | null } | null {
  switch (asset.Status) {
    case 'Active':
      return { status: 'active', error: null };
    case 'Failed': {
      const code = providerCode(asset.Error?.Code);
      return {
        status: 'failed',
        error: { code: code ?? 'Failed', message: describeCode(CONTROL_ERROR_REASONS, code) ?? 'the provider could not process the image' },
      };
    }
    default:
      return null;
  }
}
