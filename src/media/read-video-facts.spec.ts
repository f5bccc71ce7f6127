import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countedFileSource, growMdat, makeTestVideo } from '../../test/support/test-videos';
import { readVideoFacts, VideoSourceError } from './read-video-facts';
import type { RangedSource } from './video-facts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe('readVideoFacts', () => {
  let dir: string;
  const at = (name: string) => join(dir, name);
  const factsOf = async (path: string) => readVideoFacts(await countedFileSource(path));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'video-facts-'));
    await Promise.all([
      makeTestVideo(at('landscape.mp4'), { seconds: 5.04, width: 1280, height: 720, audio: true, fps: 25 }),
      makeTestVideo(at('silent.mp4'), { seconds: 2, width: 640, height: 360, audio: false }),
      makeTestVideo(at('portrait.mp4'), { seconds: 3, width: 720, height: 1280, audio: true }),
      makeTestVideo(at('moov-at-end.mp4'), { seconds: 4, width: 854, height: 480, audio: true, moovFirst: false }),
      makeTestVideo(at('clip.webm'), { seconds: 2, width: 640, height: 360, audio: true, container: 'webm' }),
    ]);
    writeFileSync(at('text.mp4'), 'not a video, only a name that says so\n'.repeat(50));
    writeFileSync(at('empty.mp4'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['landscape.mp4', { durationSeconds: 5.04, width: 1280, height: 720, hasAudio: true }],
    ['silent.mp4', { durationSeconds: 2, width: 640, height: 360, hasAudio: false }],
    ['portrait.mp4', { durationSeconds: 3, width: 720, height: 1280, hasAudio: true }],
    ['moov-at-end.mp4', { durationSeconds: 4, width: 854, height: 480, hasAudio: true }],
    ['clip.webm', { durationSeconds: 2, width: 640, height: 360, hasAudio: true }],
  ])('reads %s', async (name, expected) => {
    const facts = await factsOf(at(name));
    expect(facts).toEqual({ ...expected, durationSeconds: expect.any(Number) });
    expect(facts!.durationSeconds).toBeCloseTo(expected.durationSeconds, 1);
  });

  it.each(['text.mp4', 'empty.mp4'])('answers null for %s', async (name) => {
    expect(await factsOf(at(name))).toBeNull();
  });

  it('answers null for the first kilobyte of an MP4 (its index cut off)', async () => {
    const whole = await countedFileSource(at('moov-at-end.mp4'));
    const cut: RangedSource = { size: 1024, read: (offset, length) => whole.read(offset, Math.min(length, 1024 - offset)) };
    expect(await readVideoFacts(cut)).toBeNull();
  });

  it.each([
    ['moov first', 'landscape.mp4'],
    ['moov at the end', 'moov-at-end.mp4'],
  ])('reads a 1 GiB file (%s) through less than 1 MiB of ranged reads', async (_layout, name) => {
    const big = await growMdat(at(name), at(`big-${name}`), GiB);
    const source = await countedFileSource(big);
    expect(source.size).toBe(GiB);
    expect(await readVideoFacts(source)).toMatchObject({ width: name === 'landscape.mp4' ? 1280 : 854, hasAudio: true });
    expect(source.bytesRead).toBeLessThan(MiB);
  });

  it('reads several videos at once, each its own facts (the one MediaInfo takes them in turn)', async () => {
    const names = ['landscape.mp4', 'silent.mp4', 'portrait.mp4', 'clip.webm', 'text.mp4'];
    const all = await Promise.all(names.map((name) => factsOf(at(name))));
    expect(all.map((facts) => facts && `${facts.width}x${facts.height}`)).toEqual(['1280x720', '640x360', '720x1280', '640x360', null]);
  });

  it('rejects with a VideoSourceError when the source fails, and reads the next video as usual', async () => {
    const failing: RangedSource = { size: 10_000, read: () => Promise.reject(new Error('connection reset')) };
    await expect(readVideoFacts(failing)).rejects.toThrow(VideoSourceError);
    expect(await factsOf(at('silent.mp4'))).toMatchObject({ width: 640 });
  });

  it('rejects with a VideoSourceError when the source is slower than the time limit', async () => {
    const stalled: RangedSource = { size: 10_000, read: () => new Promise<Buffer>(() => undefined) };
    await expect(readVideoFacts(stalled, { maxBytes: MiB, timeoutMs: 200 })).rejects.toThrow(/no answer within/);
  });
});
