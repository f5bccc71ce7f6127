import type { RedemptionCodeState } from '../../billing/redemption/redemption-codes.service';
import type { RedemptionCodeEntity } from '../../billing/redemption/redemption-code.entity';
import type { RedemptionCodeDto } from './redemption-code.dto';

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** A code as listed: never the code, only its hint. */
export function toRedemptionCodeView(code: RedemptionCodeEntity, state: RedemptionCodeState): RedemptionCodeDto {
  return {
    id: code.id,
    code_hint: code.codeHint,
    quota: code.quota,
    batch_id: code.batchId ?? code.id,
    state,
    created_at: Math.floor(code.createdAt / 1000),
    expires_at: seconds(code.expiresAt),
    redeemed_by: code.redeemedBy,
    redeemed_at: seconds(code.redeemedAt),
  };
}
