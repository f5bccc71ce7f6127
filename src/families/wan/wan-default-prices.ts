import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * Model Studio's international (Singapore) list prices per second, in credits of 0.01 USD: $0.10 at
 * 720p and $0.15 at 1080p, audio at the same price (UNCONFIRMED for 2.7: docs/families.md, Wan, says
 * where each figure comes from). wan2.7-videoedit at the same rates: its own price is UNCONFIRMED.
 */
const WAN_PER_SECOND = { '720p': [10, 10], '1080p': [15, 15] } satisfies Record<string, [number, number]>;

export const WAN_DEFAULT_PRICES: DefaultPrice[] = ['wan2.6-t2v', 'wan2.6-i2v', 'wan2.7-t2v', 'wan2.7-i2v', 'wan2.7-videoedit'].flatMap(
  (model) => perSecond(model, WAN_PER_SECOND),
);
