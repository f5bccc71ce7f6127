import type { ProviderAsset } from '../upstream/gamma/gamma-control.types';
import type { AssetError, AssetStatus } from './entities/verification-asset.entity';

/** The provider's asset state in the gateway's terms (null while it is still processing). */
export function settledStatusOf(asset: ProviderAsset): { status: AssetStatus; error: AssetError | null } | null {
  switch (asset.Status) {
    case 'Active':
      return { status: 'active', error: null };
    case 'Failed':
      return {
        status: 'failed',
        error: {
          code: asset.Error?.Code || 'Failed',
          message: asset.Error?.Message || 'the provider could not process the image',
        },
      };
    default:
      return null;
  }
}
