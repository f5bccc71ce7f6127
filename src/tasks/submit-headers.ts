import type { ApiHeaderOptions } from '@nestjs/swagger';
import type { IncomingHttpHeaders } from 'node:http';
import { GATEWAY_HOPS_HEADER } from '../common/http/gateway-hops';

/** The request headers a submit reads, as both surfaces hand them to SubmitPipeline. */
export interface SubmitHeaders {
  idempotencyKey?: string;
  /** X-Gateway-Hops as sent (SubmitPipeline checks it). */
  gatewayHops?: string | string[];
}

export function submitHeadersOf(headers: IncomingHttpHeaders): SubmitHeaders {
  return {
    idempotencyKey: headers['idempotency-key'] as string | undefined,
    gatewayHops: headers[GATEWAY_HOPS_HEADER.toLowerCase()],
  };
}

/** X-Gateway-Hops in Swagger, on both submit routes. */
export const GATEWAY_HOPS_API_HEADER: ApiHeaderOptions = {
  name: GATEWAY_HOPS_HEADER,
  required: false,
  description:
    'Sent by gateways to their upstreams: how many gateways the request has passed through. Past MAX_GATEWAY_HOPS (default 3) the submit is refused (400 `too_many_gateway_hops`, no charge)',
};
