import { Transform, TransformCallback } from 'node:stream';

/** Top-level box types an MP4 or QuickTime file starts with. */
const LEADING_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid', 'styp', 'sidx', 'moof']);

/** Whether the first bytes are an MP4/QuickTime box header (size, then a known type), as any playable file starts. */
export function looksLikeMp4(head: Buffer): boolean {
  if (head.length < 8) return false;
  const size = head.readUInt32BE(0);
  const type = head.toString('latin1', 4, 8);
  return LEADING_BOXES.has(type) && (size === 0 || size === 1 || size >= 8);
}

/** Whether the first bytes are markup or text (an error page, a JSON error) rather than media. */
export function looksLikeText(head: Buffer): boolean {
  const start = head.toString('latin1', 0, Math.min(head.length, 64)).trimStart().toLowerCase();
  return start.startsWith('<') || start.startsWith('{') || start.startsWith('[');
}

/** Thrown (as a stream error) when the bytes are not a video or not as many as announced. */
export class VideoBytesError extends Error {}

/** The video is (or is announced as) bigger than the archive keeps: a lasting answer, not tried again. */
export class VideoTooLargeError extends VideoBytesError {
  constructor(maxBytes: number) {
    super(`video larger than VIDEO_MAX_BYTES (${maxBytes} bytes)`);
  }
}

/**
 * Passes a video through while checking it: the first bytes must be an MP4/QuickTime box (never
 * HTML), the total must equal the announced length and stay within `maxBytes`. Fails the stream
 * otherwise (at the first byte past `maxBytes`), so a store never commits what it got.
 */
export class VideoBytesCheck extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private checked = false;
  bytes = 0;

  constructor(
    private readonly expectedLength: number | null,
    private readonly maxBytes = Infinity,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new VideoTooLargeError(this.maxBytes));
    if (this.checked) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < 8) return done();
    this.checked = true;
    // A video that arrives whole (one read inline from its provider's answer) passes on as it is, not copied.
    const head = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
    this.head = [];
    if (!looksLikeMp4(head)) return done(new VideoBytesError('the provider answered something that is not an MP4/QuickTime video'));
    done(null, head);
  }

  override _flush(done: TransformCallback): void {
    if (!this.checked) return done(new VideoBytesError('the provider answered too few bytes for a video'));
    if (this.expectedLength !== null && this.bytes !== this.expectedLength) {
      return done(new VideoBytesError(`the provider sent ${this.bytes} of ${this.expectedLength} bytes`));
    }
    done();
  }
}
