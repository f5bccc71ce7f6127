import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countedFileSource } from '../../../test/support/test-videos';
import { readVideoFacts } from '../../media/read-video-facts';
import { sampleFrameSize, shapedSampleVideo } from './shaped-sample';

describe('sampleFrameSize', () => {
  it.each([
    ['720p', '16:9', 1280, 720],
    ['720p', '9:16', 720, 1280],
    ['720p', '1:1', 720, 720],
    ['720p', '4:3', 960, 720],
    ['480p', '16:9', 854, 480],
    ['480p', '9:16', 480, 854],
    ['1080p', '16:9', 1920, 1080],
    ['1080P', '9:16', 1080, 1920],
    ['768P', '16:9', 1366, 768],
    ['540p', '16:9', 960, 540],
    ['360p', '16:9', 640, 360],
    ['4k', '16:9', 3840, 2160],
    ['720p', '21:9', 1680, 720],
  ])('%s at %s is %sx%s', (resolution, ratio, width, height) => {
    expect(sampleFrameSize(resolution, ratio)).toEqual({ width, height });
  });

  it('takes 16:9 when no ratio is given, and no size from what is none', () => {
    expect(sampleFrameSize('720p')).toEqual({ width: 1280, height: 720 });
    expect(sampleFrameSize('hd', '16:9')).toBeNull();
    expect(sampleFrameSize('720p', 'wide')).toBeNull();
    expect(sampleFrameSize('720p', '0:9')).toBeNull();
  });
});

describe('shapedSampleVideo', () => {
  let cache: string;
  beforeEach(() => (cache = mkdtempSync(join(tmpdir(), 'shaped-samples-'))));
  afterEach(() => {
    rmSync(cache, { recursive: true, force: true });
  });

  it.each([
    { seconds: 5, width: 1280, height: 720, audio: true },
    { seconds: 2, width: 720, height: 1280, audio: false },
    { seconds: 10, width: 1920, height: 1080, audio: true },
    { seconds: 4, width: 854, height: 480, audio: false },
    { seconds: 1, width: 3840, height: 2160, audio: true },
  ])('makes a video of $seconds s, $width x $height, audio $audio', async (shape) => {
    const path = await shapedSampleVideo(shape, { cacheDir: cache });
    const facts = await readVideoFacts(await countedFileSource(path));
    expect(facts).toEqual({ durationSeconds: shape.seconds, width: shape.width, height: shape.height, hasAudio: shape.audio });
  });

  it('makes each shape once: later asks, and asks at the same time, get the same file', async () => {
    // ffmpeg behind a script that notes each run.
    const runs = join(cache, 'runs');
    const ffmpegPath = join(cache, 'counting-ffmpeg.sh');
    writeFileSync(ffmpegPath, `#!/bin/sh\necho run >> '${runs}'\nexec '${ffmpegInstaller.path}' "$@"\n`, { mode: 0o755 });
    const samples = join(cache, 'samples');
    const shape = { seconds: 2, width: 640, height: 360, audio: true };
    const ask = () => shapedSampleVideo(shape, { cacheDir: samples, ffmpegPath });
    const [first, second] = await Promise.all([ask(), ask()]);
    expect(second).toBe(first);
    const madeAt = statSync(first).mtimeMs;
    expect(await ask()).toBe(first);
    expect(statSync(first).mtimeMs).toBe(madeAt);
    expect(readFileSync(runs, 'utf8')).toBe('run\n');
    expect(readdirSync(samples)).toEqual(['2s-640x360-audio.mp4']);
  });

  it.each([
    { seconds: 0, width: 640, height: 360, audio: true },
    { seconds: 2.5, width: 640, height: 360, audio: true },
    { seconds: 61, width: 640, height: 360, audio: true },
    { seconds: 2, width: 641, height: 360, audio: true },
    { seconds: 2, width: 4096, height: 2160, audio: true },
  ])('refuses a shape it cannot make: $seconds s, $width x $height', async (shape) => {
    await expect(shapedSampleVideo(shape, { cacheDir: cache })).rejects.toThrow(RangeError);
  });
});
