import type { IncomingMessage } from 'node:http';

/** Far deeper than any request of the service needs (a family B media list is 5 levels). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** A 4xx the error filter maps by its `status` (see toAppError). */
class JsonBodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether UTF-8 JSON nests objects and arrays deeper than `maxDepth`, read from the raw bytes
 * before anything is parsed. Brackets inside strings do not count; malformed JSON is left to the parser.
 */
export function jsonNestsDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let depth = 0;
  let i = 0;
  while (i < buffer.length) {
    const byte = buffer[i];
    if (byte === QUOTE) {
      i = endOfString(buffer, i);
      if (i < 0) return false;
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
    i++;
  }
  return false;
}

/** The index after the closing quote of the string opening at `start`, or -1 when it never closes. */
function endOfString(buffer: Buffer, start: number): number {
  let from = start + 1;
  for (;;) {
    // indexOf keeps a long string (a data URI) a native scan rather than a loop per byte.
    const quote = buffer.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let k = quote - 1; k > start && buffer[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * body-parser `verify` hook: a JSON body nested deeper than `maxDepth` is a 400 before it is parsed,
 * so that neither the parser nor anything walking the result (validation, copies) meets it.
 */
export function rejectDeepJson(maxDepth = MAX_JSON_DEPTH): (req: IncomingMessage, res: unknown, body: Buffer, encoding: string) => void {
  return (_req, _res, body, encoding) => {
    let bytes: Uint8Array = body;
    if (encoding !== 'utf-8') {
      // UTF-16 code units can hold bracket bytes, so other charsets are scanned as decoded text.
      let text: string;
      try {
        text = new TextDecoder(encoding).decode(body);
      } catch {
        throw new JsonBodyError(415, `unsupported charset "${encoding.toUpperCase()}"`);
      }
      bytes = Buffer.from(text, 'utf8');
    }
    if (jsonNestsDeeperThan(bytes, maxDepth))
      throw new JsonBodyError(400, `request body is nested too deeply (more than ${maxDepth} levels)`);
  };
}
