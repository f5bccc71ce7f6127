import { readVideoFacts } from '../../media/read-video-facts';
import type { AskedVideo } from './emulator-http';

/** The most an emulator reads of a source video (providers take up to a few hundred MB; tests send kilobytes). */
const MAX_SOURCE_BYTES = 64 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

/** What an emulated provider fetched of a source video (edit, extend, video-to-video), as its tests read it. */
export interface FetchedSource {
  url: string;
  bytes: number;
  /** The video's facts when the bytes are one MediaInfo reads (the simulator's samples); null for a test's opaque bytes. */
  seconds: number | null;
  size: string | null;
}

/**
 * Fetches a source video as a provider does (its URL, no key), and reads its length and frame:
 * null when it cannot be fetched (not 200, too large, unreachable), the emulator's 400.
 */
export async function fetchSourceVideo(url: string): Promise<FetchedSource | null> {
  if (!/^https?:\/\//i.test(url)) return null;
  let bytes: Buffer;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (response.status !== 200) return null;
    bytes = Buffer.from(await response.arrayBuffer());
  } catch {
    return null;
  }
  if (bytes.length === 0 || bytes.length > MAX_SOURCE_BYTES) return null;
  const facts = await readVideoFacts({
    size: bytes.length,
    read: async (offset, length) => bytes.subarray(offset, offset + length),
  }).catch(() => null);
  return {
    url,
    bytes: bytes.length,
    seconds: facts ? Math.round(facts.durationSeconds) : null,
    size: facts ? `${facts.width}x${facts.height}` : null,
  };
}

/** What a video made from the source asks: its frame, and `seconds` (the source's for an edit); unsaid when unknown. */
export function askedFromSource(source: FetchedSource, seconds: number | null = source.seconds): AskedVideo {
  return { ...(seconds !== null ? { seconds } : {}), ...(source.size ? { size: source.size } : {}) };
}
