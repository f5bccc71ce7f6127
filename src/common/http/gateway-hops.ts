import { AppError, ErrorCode } from '../errors/app-error';

/**
 * How many gateways a request has passed through, the sender included: this gateway sends it on
 * every upstream call and reads it on every submit, so that a chain of gateways that loops back
 * (a channel pointing at this gateway, or at one that points back here) ends after a few hops.
 */
export const GATEWAY_HOPS_HEADER = 'X-Gateway-Hops';
/** A sane ceiling on what a client may send: anything longer is not a hop count. */
const HOPS_PATTERN = /^\d{1,4}$/;

/**
 * The hops a submit has already made (0 without the header); a 400 naming the header for a value
 * that is not a count, and `too_many_gateway_hops` past `max`, before anything is charged.
 */
export function gatewayHopsOf(raw: string | string[] | undefined, max: number): number {
  if (raw === undefined) return 0;
  const value = Array.isArray(raw) ? raw.join(',') : raw.trim();
  if (!HOPS_PATTERN.test(value)) throw AppError.invalid(`${GATEWAY_HOPS_HEADER} must be a whole number of gateways`, GATEWAY_HOPS_HEADER);
  const hops = Number(value);
  if (hops > max) {
    throw new AppError(
      ErrorCode.TooManyGatewayHops,
      `request has passed through too many gateways (${hops}, at most ${max}): a channel probably points back at a gateway of the chain`,
      {
        param: GATEWAY_HOPS_HEADER,
      },
    );
  }
  return hops;
}

/** The header of an upstream call on behalf of a submit that had made `hopsBefore` hops (0: a call of this gateway's own). */
export function gatewayHopsHeader(hopsBefore = 0): Record<string, string> {
  return { [GATEWAY_HOPS_HEADER]: String(hopsBefore + 1) };
}
