import { randomBase62 } from '../common/runtime/random-id';

export const newEndpointId = (): string => `we_${randomBase62(24)}`;
/** The callback secret's row (never shown to the account). */
export const newCallbackRowId = (): string => `wcb_${randomBase62(24)}`;
export const newEventId = (): string => `evt_${randomBase62(24)}`;
export const newDeliveryId = (): string => `whd_${randomBase62(24)}`;
