import type { IncomingMessage, ServerResponse } from 'node:http';
import { Gauge, type Registry } from 'prom-client';
import { AppError, ErrorCode } from '../common/errors/app-error';

/** A body of unknown length (chunked) is counted at the most any route accepts: a multipart video submit. */
export const LARGEST_BODY_BYTES = 21 * 1024 * 1024;
/** A body in memory is its bytes, its text and the parsed value: about three times its size (measured: 19 MB JSON, ~60 MB). */
const MEMORY_PER_BODY_BYTE = 3;
/** Bodies in flight are read within about a second on a working network. */
const RETRY_AFTER_SECONDS = 1;
const ADMITTED = Symbol('admittedToBodyMemory');

/**
 * The bytes that request bodies being read may take together in this process (BODY_MEMORY_LIMIT_MB):
 * each parser (the fast lane's, Express's and multer's) buffers a whole body, so without a bound
 * concurrent large bodies grow the process without end. A request's share (three times its length)
 * is reserved before its body is read and freed when its response ends; one that does not fit is
 * answered at once.
 */
export class BodyMemoryBudget {
  private inFlight = 0;

  constructor(
    readonly limitBytes: number,
    registry: Registry,
  ) {
    const inFlight = () => this.inFlight;
    new Gauge({
      name: 'gateway_request_body_bytes_in_flight',
      help: 'Bytes reserved by request bodies being read (BODY_MEMORY_LIMIT_MB bounds them)',
      registers: [registry],
      collect() {
        this.set(inFlight());
      },
    });
  }

  /** Reserves the request's body until its response ends; 413 if it could never fit, 503 with Retry-After while others fill the budget. */
  admit(req: IncomingMessage, res: ServerResponse): void {
    const request = req as IncomingMessage & { [ADMITTED]?: true };
    if (request[ADMITTED]) return;
    const bytes = this.bytesOf(req);
    // A body no route would take is refused as such, not told to retry (its size is no fault of ours).
    if (bytes > this.limitBytes || declaredLength(req) > LARGEST_BODY_BYTES)
      throw new AppError(ErrorCode.PayloadTooLarge, 'request body too large');
    if (this.inFlight + bytes > this.limitBytes) {
      throw new AppError(ErrorCode.ServiceUnavailable, 'the gateway is reading too many request bodies at once, retry shortly', {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    this.inFlight += bytes;
    request[ADMITTED] = true;
    res.once('close', () => (this.inFlight -= bytes));
  }

  /** What reading the body will take: its declared length, or a chunked body as the largest one a route accepts (at most the whole budget). */
  private bytesOf(req: IncomingMessage): number {
    const declared = declaredLength(req);
    if (Number.isFinite(declared)) return declared * MEMORY_PER_BODY_BYTE;
    return Math.min(LARGEST_BODY_BYTES * MEMORY_PER_BODY_BYTE, this.limitBytes);
  }
}

/** The body's Content-Length, or NaN for a chunked body (whose length is unknown until read). */
function declaredLength(req: IncomingMessage): number {
  return req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : Number.NaN;
}
