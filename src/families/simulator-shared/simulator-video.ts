import { Logger } from '@nestjs/common';
import type { AskedVideo, VideoSource } from './emulator-http';
import { SAMPLE_VIDEO_PATH } from './sample-video';
import { type SampleShape, sampleFrameSize, shapedSampleVideo } from './shaped-sample';

/**
 * What the simulator delivers where a family's request leaves the shape unsaid: long, sharp and with
 * sound, so that a family default is never delivered short (settlement never charges more than was
 * asked, so more than asked costs the customer nothing).
 */
const UNSAID = { seconds: 10, resolution: '1080p', aspectRatio: '16:9', audio: true };

const logger = new Logger('SimulatorVideo');

/** The simulator's videos: each made (once per shape, then cached) to what its task asked, so offline tasks settle as charged. */
export const simulatorVideo: VideoSource = {
  madeFor: async (asked) => {
    try {
      return { file: await shapedSampleVideo(sampleShapeOf(asked)) };
    } catch (error) {
      // No ffmpeg on this host, or a shape it cannot make: the fixed sample, which settles short but serves.
      logger.warn(`no sample of the asked shape (${(error as Error).message}); serving the fixed one`);
      return { file: SAMPLE_VIDEO_PATH };
    }
  },
};

/** The sample shape of what a task asked: whole seconds rounded up (1-60), the exact frame or the resolution in its ratio. */
export function sampleShapeOf(asked: AskedVideo): SampleShape {
  const seconds = Math.min(60, Math.max(1, Math.ceil(asked.seconds ?? UNSAID.seconds)));
  const frame =
    frameOf(asked.size) ??
    sampleFrameSize(asked.resolution ?? UNSAID.resolution, asked.aspectRatio ?? UNSAID.aspectRatio) ??
    sampleFrameSize(asked.resolution ?? UNSAID.resolution) ??
    sampleFrameSize(UNSAID.resolution, asked.aspectRatio ?? UNSAID.aspectRatio) ??
    sampleFrameSize(UNSAID.resolution)!;
  return { seconds, ...frame, audio: asked.audio ?? UNSAID.audio };
}

/** `1280x720` (or `1280*720`) as an even frame the sampler can make; null for anything else. */
function frameOf(size: string | undefined): { width: number; height: number } | null {
  const match = size ? /^(\d{2,4})\s*[x*×]\s*(\d{2,4})$/i.exec(size.trim()) : null;
  if (!match) return null;
  const even = (n: number) => Math.min(3840, Math.max(16, 2 * Math.round(n / 2)));
  const [width, height] = [even(Number(match[1])), even(Number(match[2]))];
  return Math.min(width, height) <= 2160 ? { width, height } : null;
}
