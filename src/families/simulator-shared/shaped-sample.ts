import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { shortEdgeOf } from '../../media/delivered-usage';

/** What a simulator delivers: a clip of the length, frame and audio asked for. */
export interface SampleShape {
  /** Whole seconds, 1 to 60. */
  seconds: number;
  /** Even, 16 to 3840 (H.264 in 4:2:0 halves both). */
  width: number;
  height: number;
  audio: boolean;
}

export interface SampleMaking {
  /** Where made samples are kept (SAMPLE_CACHE_DIR). */
  cacheDir?: string;
  /** The ffmpeg binary (the one `@ffmpeg-installer/ffmpeg` ships). */
  ffmpegPath?: string;
}

/** Where made samples are kept between runs and processes (one file per shape). */
export const SAMPLE_CACHE_DIR = join(tmpdir(), 'video-gateway-samples');

/** Low, so that a 10 s 1080p clip is made in about a second: a test pattern needs no more. */
const FPS = 8;
const FFMPEG_TIMEOUT_MS = 120_000;

const making = new Map<string, Promise<string>>();

/**
 * The path of an MP4 of exactly `shape` (H.264 + AAC, `+faststart`, like the fixed sample: a moving
 * testsrc2 pattern on a flat background and a 440 Hz tone), made once per shape with the shipped
 * ffmpeg and kept in `cacheDir`. Concurrent asks for one shape share one ffmpeg run; the file appears
 * whole (written aside, then renamed). Cost grows with the frame: 4k (3840x2160) takes several times
 * as long as 1080p and is best made short.
 */
export async function shapedSampleVideo(shape: SampleShape, options: SampleMaking = {}): Promise<string> {
  const { cacheDir = SAMPLE_CACHE_DIR, ffmpegPath = ffmpegInstaller.path } = options;
  checkShape(shape);
  const path = join(cacheDir, `${shape.seconds}s-${shape.width}x${shape.height}-${shape.audio ? 'audio' : 'silent'}.mp4`);
  const running = making.get(path);
  if (running) return running;
  // Set before any await: a second ask arriving meanwhile waits on this one.
  const made = isMade(path)
    .then((found) => (found ? path : makeSample(shape, path, ffmpegPath)))
    .finally(() => making.delete(path));
  making.set(path, made);
  return made;
}

/**
 * The frame of a resolution name in an aspect ratio: the name gives the short edge (`720p` -> 720,
 * `4k` -> 2160), the ratio the long one, rounded to even (`480p` 16:9 -> 854x480, 9:16 -> 480x854,
 * 1:1 -> 480x480). Null for a name or ratio that is no size.
 */
export function sampleFrameSize(resolution: string, aspectRatio = '16:9'): { width: number; height: number } | null {
  const edge = shortEdgeOf(resolution);
  const ratio = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(aspectRatio);
  if (edge === null || !ratio) return null;
  const [across, down] = [Number(ratio[1]), Number(ratio[2])];
  if (!(across > 0 && down > 0)) return null;
  const long = 2 * Math.round((edge * Math.max(across, down)) / Math.min(across, down) / 2);
  return across >= down ? { width: long, height: edge } : { width: edge, height: long };
}

function checkShape({ seconds, width, height }: SampleShape): void {
  const even = (size: number) => Number.isInteger(size) && size % 2 === 0 && size >= 16 && size <= 3840;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60)
    throw new RangeError(`a sample's seconds are a whole number from 1 to 60, not ${seconds}`);
  if (!even(width) || !even(height) || Math.min(width, height) > 2160) throw new RangeError(`no sample frame of ${width}x${height}`);
}

async function isMade(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.size > 0,
    () => false,
  );
}

async function makeSample({ seconds, width, height, audio }: SampleShape, path: string, ffmpegPath: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.part`;
  // The pattern a third of the frame across: drawing testsrc2 over the whole of a 4k frame costs more than encoding it.
  const pattern = `${2 * Math.max(8, Math.round(width / 6))}x${2 * Math.max(8, Math.round(height / 6))}`;
  const args = [
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
    ['-f', 'lavfi', '-i', `color=c=0x1d2b3a:size=${width}x${height}:rate=${FPS}`],
    ['-f', 'lavfi', '-i', `testsrc2=size=${pattern}:rate=${FPS}`],
    audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : [],
    ['-filter_complex', '[0:v][1:v]overlay=(W-w)/2:(H-h)/2:shortest=1,format=yuv420p[v]', '-map', '[v]'],
    audio ? ['-map', '2:a', '-c:a', 'aac', '-b:a', '48k'] : [],
    ['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '35'],
    ['-movflags', '+faststart', '-f', 'mp4', temp],
  ].flat();
  try {
    await promisify(execFile)(ffmpegPath, args, { timeout: FFMPEG_TIMEOUT_MS, killSignal: 'SIGKILL' });
    await rename(temp, path);
    return path;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
