import { withinTime } from '../common/runtime/within-time';
import { discardMediaInfo, withMediaInfo } from './media-info';
import { type RangedSource, type VideoFacts, videoFactsOf } from './video-facts';

export interface FactsReadLimits {
  /** Bytes read at most; past them the object reads as ended, and MediaInfo reports what it has parsed. */
  maxBytes: number;
  /** Time for the whole read; a source slower than this is a fault, not a verdict on the video. */
  timeoutMs: number;
}

/**
 * MediaInfo has what it reports after the headers (an MP4's moov, wherever it is; a WebM's segment
 * info and tracks), but goes on parsing frames: 20 of a 60 s clip's 23 MB. The budget stops it there.
 */
export const FACTS_READ_LIMITS: FactsReadLimits = { maxBytes: 512 * 1024, timeoutMs: 5000 };

/** A read of the source that failed or was too slow: the video may be fine, its store was not. */
export class VideoSourceError extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'VideoSourceError';
  }
}

/**
 * The facts of a video read from `source`, asking it only for the ranges MediaInfo wants (never more
 * than `limits.maxBytes`); null when the bytes are not a video MediaInfo can read. Rejects with a
 * VideoSourceError when the source fails or the read takes longer than `limits.timeoutMs`.
 */
export async function readVideoFacts(source: RangedSource, limits: FactsReadLimits = FACTS_READ_LIMITS): Promise<VideoFacts | null> {
  if (source.size <= 0) return null;
  return withMediaInfo(async (mediaInfo) => {
    const deadline = Date.now() + limits.timeoutMs;
    let bytesRead = 0;
    const readChunk = async (length: number, offset: number): Promise<Uint8Array> => {
      if (bytesRead + length > limits.maxBytes) return new Uint8Array(0);
      bytesRead += length;
      try {
        const bytes = await withinTime(source.read(offset, length), deadline - Date.now());
        return bytes.length > length ? bytes.subarray(0, length) : bytes;
      } catch (error) {
        throw new VideoSourceError(`reading bytes ${offset}-${offset + length - 1} of the video: ${String(error)}`, { cause: error });
      }
    };
    try {
      return videoFactsOf(await mediaInfo.analyzeData(source.size, readChunk));
    } catch (error) {
      if (error instanceof VideoSourceError) throw error;
      // MediaInfoLib itself failed on these bytes: not a video it can read, and an instance not to trust again.
      discardMediaInfo();
      return null;
    }
  });
}
