import type { Settlement } from '../../billing/settlement';
import type { SettlementOutcome } from '../task-metrics.service';

/** Why a settlement had no video to read: its stored copy failed to read, or no copy was kept. */
export type NoVideo = 'unreadable' | 'not_stored';

/** The outcome `gateway_settlements_total` counts a settlement under (see SettlementOutcome). */
export function settlementOutcome(settlement: Settlement, noVideo: NoVideo): SettlementOutcome {
  if (settlement.settled === 'delivered') return settlement.refund > 0 ? 'refunded_difference' : 'as_charged';
  return settlement.delivered ? 'unpriced' : noVideo;
}
