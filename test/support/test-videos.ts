import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { execFile } from 'node:child_process';
import { open, readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { RangedSource } from '../../src/media/video-facts';

export interface TestVideo {
  seconds: number;
  width: number;
  height: number;
  audio: boolean;
  /** Frames per second (10); 25 makes 5.04 s a whole number of frames. */
  fps?: number;
  /** `mp4` (H.264 + AAC) or `webm` (VP8 + Opus). */
  container?: 'mp4' | 'webm';
  /** An MP4's moov first (`+faststart`, the default) or, as ffmpeg writes it otherwise, after the mdat. */
  moovFirst?: boolean;
}

/** A real video of that shape made with the ffmpeg the gateway ships (testsrc2 and a 440 Hz tone). */
export async function makeTestVideo(path: string, video: TestVideo): Promise<string> {
  const { seconds, width, height, audio, fps = 10, container = 'mp4', moovFirst = true } = video;
  const inputs = ['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}`];
  if (audio) inputs.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000');
  const codecs =
    container === 'webm'
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '200k', ...(audio ? ['-c:a', 'libopus'] : [])]
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '40', '-pix_fmt', 'yuv420p', ...(audio ? ['-c:a', 'aac', '-b:a', '48k'] : [])];
  const layout = container === 'mp4' && moovFirst ? ['-movflags', '+faststart'] : [];
  await promisify(execFile)(ffmpegInstaller.path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    ...inputs,
    '-t',
    String(seconds),
    ...codecs,
    ...layout,
    path,
  ]);
  return path;
}

/**
 * A copy of an MP4 made `totalBytes` long by growing its mdat: the frames stay where its index says,
 * followed by a hole (a sparse region: nothing is written there), and whatever followed the mdat (the
 * moov of a file without faststart) moves to the end. A valid file of that size, made in no time.
 */
export async function growMdat(source: string, target: string, totalBytes: number): Promise<string> {
  const bytes = await readFile(source);
  let at = 0;
  while (at + 8 <= bytes.length && bytes.toString('latin1', at + 4, at + 8) !== 'mdat') {
    if (bytes.readUInt32BE(at) < 8) throw new Error(`${source}: a box with a 64-bit or open-ended size at ${at}`);
    at += bytes.readUInt32BE(at);
  }
  if (at + 8 > bytes.length) throw new Error(`${source} has no mdat box`);
  const mdatEnd = at + bytes.readUInt32BE(at);
  const after = bytes.subarray(mdatEnd);
  const head = Buffer.from(bytes.subarray(0, mdatEnd));
  head.writeUInt32BE(totalBytes - after.length - at, at);
  const file = await open(target, 'w');
  try {
    await file.write(head, 0, head.length, 0);
    await file.truncate(totalBytes - after.length);
    await file.write(after, 0, after.length, totalBytes - after.length);
  } finally {
    await file.close();
  }
  return target;
}

/** A RangedSource over a local file that counts what was read through it. */
export async function countedFileSource(path: string): Promise<RangedSource & { bytesRead: number; reads: number }> {
  const { size } = await stat(path);
  return countedSource({
    size,
    async read(offset, length) {
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  });
}

/** `source`, counting the bytes and the reads that went through it. */
export function countedSource(source: RangedSource): RangedSource & { bytesRead: number; reads: number } {
  const counted = {
    size: source.size,
    bytesRead: 0,
    reads: 0,
    async read(offset: number, length: number) {
      const bytes = await source.read(offset, length);
      counted.bytesRead += bytes.length;
      counted.reads++;
      return bytes;
    },
  };
  return counted;
}
