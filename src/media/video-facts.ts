import type { GeneralTrack, MediaInfoResult, Track, VideoTrack } from 'mediainfo.js';

/** What a stored video is: what settlement bills (see docs/product-contract.md, "Billing on what was delivered"). */
export interface VideoFacts {
  /** The video stream's duration (the container's where the stream does not say), in seconds. */
  durationSeconds: number;
  /** The frame as it is shown: a stream stored landscape with a 90° rotation is portrait here. */
  width: number;
  height: number;
  hasAudio: boolean;
}

/** An object read by byte ranges (a stored video, a file): nothing is read but what is asked. */
export interface RangedSource {
  readonly size: number;
  /** `length` bytes from `offset`, fewer only at the end of the object. */
  read(offset: number, length: number): Promise<Buffer>;
}

const positive = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/** The facts in MediaInfo's report, or null when it found no video stream with a frame size and a duration. */
export function videoFactsOf(result: MediaInfoResult): VideoFacts | null {
  const tracks = result.media?.track ?? [];
  const video = tracks.find((track): track is VideoTrack => track['@type'] === 'Video');
  if (!video) return null;
  const general = tracks.find((track): track is GeneralTrack => track['@type'] === 'General');
  const durationSeconds = positive(video.Duration) ?? positive(general?.Duration);
  const [width, height] = [positive(video.Width), positive(video.Height)];
  if (durationSeconds === null || width === null || height === null) return null;
  // MediaInfo gives the stored frame and its rotation ("90.000"); a quarter turn shows it the other way round.
  const quarterTurn = Math.abs(Math.round(Number(video.Rotation ?? 0) / 90)) % 2 === 1;
  return {
    durationSeconds,
    width: quarterTurn ? height : width,
    height: quarterTurn ? width : height,
    hasAudio: tracks.some((track: Track) => track['@type'] === 'Audio'),
  };
}
