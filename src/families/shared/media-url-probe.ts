import type { Readable } from 'node:stream';
import { AppError } from '../../common/errors/app-error';
import { notPublicHostMessage } from '../../common/urls/url-guard';

/**
 * The parts of the cheap pre-charge read of a media URL's first bytes that every family's check
 * shares: how long it may take, which answers mean the URL cannot work for the provider either, and
 * reading the head of the body. What each family accepts (formats, sizes) stays with the family.
 */
export const PROBE_TIMEOUT_MS = 5_000;

/** Answers that say the URL is gone or closed, so the provider would fail it too. */
const GONE_STATUSES = new Set([401, 403, 404, 410]);
/** Connection errors that mean the URL cannot work for the provider either. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND']);

/** The `Range` header asking for the first `bytes` of the body. */
export const headRange = (bytes: number): Record<string, string> => ({ Range: `bytes=0-${bytes - 1}` });

export const unreachableMedia = (field: string, why: string): AppError =>
  AppError.invalid(`${field} is not reachable (${why}): the URL must be publicly accessible and not expired`, field);

/** The 400 a failed connection's error code means for `field`, or null when it is left to the provider. */
export function mediaConnectionRefusal(code: string | undefined, field: string): AppError | null {
  if (code === 'ENOTPUBLIC') return AppError.invalid(notPublicHostMessage(field), field);
  if (code && UNREACHABLE_CODES.has(code)) return unreachableMedia(field, code);
  return null;
}

/** A gone or closed URL is a 400 naming the field. */
export function assertMediaNotGone(status: number, field: string): void {
  if (GONE_STATUSES.has(status)) throw unreachableMedia(field, `HTTP ${status}`);
}

/** The first `bytes` of a 200/206 answer's body (empty for any other status); the stream is closed after. */
export async function readProbeHead(status: number, stream: Readable, bytes: number): Promise<Buffer> {
  const head = status === 200 || status === 206 ? await readHead(stream, bytes) : Buffer.alloc(0);
  stream.destroy();
  return head;
}

/** The first `bytes` of a stream (fewer if it ends sooner), bounded in time. */
function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      resolve(Buffer.concat(chunks).subarray(0, bytes));
    };
    const timer = setTimeout(done, PROBE_TIMEOUT_MS);
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) done();
    });
    stream.on('end', done);
    stream.on('error', done);
  });
}
