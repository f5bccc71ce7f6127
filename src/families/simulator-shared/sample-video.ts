import { join } from 'node:path';

/**
 * A real, playable clip the simulators serve: 3 s, 320x180, H.264 + AAC, `+faststart`
 * (ffmpeg testsrc2 pattern with a 440 Hz tone). The same relative path works from src/ and dist/
 * (scripts/build.js copies simulator/assets).
 */
export const SAMPLE_VIDEO_PATH = join(__dirname, '..', '..', 'simulator', 'assets', 'sample.mp4');
export const SAMPLE_VIDEO_WIDTH = 320;
export const SAMPLE_VIDEO_HEIGHT = 180;

/** A 1280x720 PNG (a dusk scene) that fits every family's image limits: i2v first frames, r2v references, assets. */
export const SAMPLE_IMAGE_PATH = join(__dirname, '..', '..', 'simulator', 'assets', 'sample.png');
