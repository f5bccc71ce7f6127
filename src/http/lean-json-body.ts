import type { NextFunction, Request, RequestHandler, Response } from 'express';
import createError from 'http-errors';
import { Readable } from 'node:stream';

/**
 * Measured gain of the lean body read over the framework's own path (CPU per request, the median of 24 alternated rounds
 * side by side on the 2-core machine, 2026-12-02): quote x1.24 (quartiles 0.81-3.01). Command: `BENCH=ab BENCH_BASELINE=<this code with it switched off> BENCH_AB_ROUTE=quote BENCH_ROUNDS=24 npm run bench`,
 * the baseline off: `parseBodies` in its place in the hot pipeline. Under x1.10 it would go back to the framework (docs/benchmarks.md, "The bypasses, measured").
 */

/** What JSON body-parser reads as UTF-8 and nothing else: no charset (its default) or `charset=utf-8`. */
const UTF8_JSON_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);
const BYTE_ORDER_MARK = 0xef;
const REPLACEMENT_CHARACTER = '\uFFFD';

export interface LeanJsonBodyOptions {
  /** What every request the lean read does not take goes through: the shared body middleware (the memory budget, then the body router). */
  fallback: RequestHandler;
  /** The memory budget's admission, as the fallback makes it, before a byte is read. */
  admit(req: Request, res: Response): void;
  /** The parser the body router gives these paths; it reads again, from the bytes already read, any body the lean read does not settle. */
  parser: RequestHandler;
  /** The paths the body router gives that parser (`use` takes each as a prefix). */
  paths: readonly string[];
  /** That parser's `verify` and limit. */
  verify(req: Request, res: Response, body: Buffer, encoding: string): void;
  limitBytes: number;
}

/**
 * The JSON body of a video submit or quote, read as the body router's JSON parser reads it but
 * without its machinery (the router's layers, type-is and content-type parsed again, raw-body's
 * stream bookkeeping, iconv-lite): about a tenth of a quote's CPU. It takes only what it reads
 * exactly as the parser does: a declared length within the limit, no Content-Encoding, UTF-8 JSON,
 * an object that the parser's `verify` passes and JSON.parse reads; the body is then the parser's
 * to the value, and the request goes on at `setImmediate`, where the router went on. Anything else
 * goes to `fallback` untouched, and a body it has read but does not settle (an error to report, a
 * byte order mark, text that is not UTF-8, an array) goes to `parser` again, from the same bytes, so
 * that every answer and error is the parser's (test/pipeline-equivalence.e2e-spec.ts).
 */
export function leanJsonBody(options: LeanJsonBodyOptions): RequestHandler {
  const { fallback, admit, limitBytes } = options;
  // As the router matches a `use` path: the path itself, or it followed by a segment or a query.
  const underPaths = new RegExp(`^(?:${options.paths.map(escapeRegExp).join('|')})(?:[/?]|$)`);
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = leanLength(req, underPaths, limitBytes);
    if (length < 0) return void fallback(req, res, next);
    try {
      admit(req, res);
    } catch (error) {
      return next(error);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => {
      stop();
      settle(req, res, next, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received), length, options);
    };
    // As raw-body reports them (the client is gone; the request log keeps the 400).
    const onAborted = () => {
      stop();
      next(createError(400, 'request aborted', { code: 'ECONNABORTED', expected: length, length, received, type: 'request.aborted' }));
    };
    const onError = (error: Error) => {
      stop();
      next(createError(400, error));
    };
    const stop = () => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('aborted', onAborted);
      req.removeListener('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onError);
  };
}

/** The body's declared length when the lean read takes the request; -1 when it goes to the fallback. */
function leanLength(req: Request, underPaths: RegExp, limitBytes: number): number {
  const { headers } = req;
  const declared = headers['content-length'];
  if (
    req.method !== 'POST' ||
    declared === undefined ||
    headers['transfer-encoding'] !== undefined ||
    headers['content-encoding'] !== undefined ||
    !UTF8_JSON_TYPES.has(headers['content-type'] ?? '') ||
    !underPaths.test(req.url) ||
    !/^\d{1,9}$/.test(declared)
  ) {
    return -1;
  }
  const length = Number(declared);
  return length > 0 && length <= limitBytes ? length : -1;
}

/** The body read whole: the parser's value, or the parser itself on the same bytes. */
function settle(req: Request, res: Response, next: NextFunction, body: Buffer, length: number, options: LeanJsonBodyOptions): void {
  const value = leanValue(req, res, body, length, options);
  if (value === undefined) return readAgain(req, res, next, body, options);
  req.body = value;
  setImmediate(next);
}

/** The object the parser would make of `body`, when the lean read can tell it is exactly that; undefined otherwise. */
function leanValue(req: Request, res: Response, body: Buffer, length: number, { verify }: LeanJsonBodyOptions): object | undefined {
  if (body.length !== length || body[0] === BYTE_ORDER_MARK) return undefined;
  try {
    verify(req, res, body, 'utf-8');
    const text = body.toString('utf8');
    if (text[0] !== '{' || text.includes(REPLACEMENT_CHARACTER)) return undefined;
    return JSON.parse(text) as object;
  } catch {
    return undefined;
  }
}

/**
 * The parser reading `body` as it would have read the request: a stream of the same bytes with the
 * request's headers, method and URL (all that body-parser reads of it); its value or error is the answer.
 */
function readAgain(req: Request, res: Response, next: NextFunction, body: Buffer, { parser }: LeanJsonBodyOptions): void {
  const replay = Object.assign(Readable.from([body], { objectMode: false }), {
    headers: req.headers,
    method: req.method,
    url: req.url,
    // What on-finished reads to tell whether a request's body is still to be read (body-parser asks before reading and after an error).
    complete: false,
    upgrade: false,
    socket: { readable: true },
  });
  replay.once('end', () => (replay.complete = true));
  void parser(replay as unknown as Request, res, (error?: unknown) => {
    if (error) return next(error);
    req.body = (replay as unknown as Request).body;
    next();
  });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
