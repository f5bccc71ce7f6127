import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseByteRange } from './byte-range';
import { looksLikeMp4, looksLikeText, VideoBytesCheck, VideoTooLargeError } from './video-bytes';

const box = (type: string, size = 24) => Buffer.concat([Buffer.from([0, 0, 0, size]), Buffer.from(type, 'latin1'), Buffer.alloc(16)]);

async function check(chunks: Buffer[], expected: number | null, maxBytes?: number): Promise<Buffer> {
  const out: Buffer[] = [];
  const checker = new VideoBytesCheck(expected, maxBytes);
  await pipeline(Readable.from(chunks), checker, async (source: AsyncIterable<unknown>) => {
    for await (const chunk of source) out.push(chunk as Buffer);
  });
  return Buffer.concat(out);
}

describe('video bytes', () => {
  it('recognises MP4 and QuickTime starts, and nothing else', () => {
    for (const type of ['ftyp', 'moov', 'mdat', 'free', 'wide']) expect(looksLikeMp4(box(type))).toBe(true);
    expect(looksLikeMp4(Buffer.from('<!DOCTYPE html><html>'))).toBe(false);
    expect(looksLikeMp4(Buffer.from([0, 0, 0, 4, 0x66, 0x74, 0x79, 0x70]))).toBe(false); // a box smaller than its header
    expect(looksLikeText(Buffer.from('  <html>'))).toBe(true);
    expect(looksLikeText(Buffer.from('{"error":1}'))).toBe(true);
    expect(looksLikeText(box('ftyp'))).toBe(false);
  });

  it('passes a video through whole, even when its first bytes arrive in pieces', async () => {
    const video = Buffer.concat([box('ftyp'), Buffer.alloc(1000, 1)]);
    expect((await check([video.subarray(0, 3), video.subarray(3, 9), video.subarray(9)], video.length)).equals(video)).toBe(true);
  });

  it('fails HTML, a short body, a long body and an empty one', async () => {
    await expect(check([Buffer.from('<!DOCTYPE html><html><body>oops</body></html>')], null)).rejects.toThrow('not an MP4/QuickTime video');
    const video = Buffer.concat([box('ftyp'), Buffer.alloc(100)]);
    await expect(check([video], video.length + 1)).rejects.toThrow(`sent ${video.length} of ${video.length + 1} bytes`);
    await expect(check([video], video.length - 1)).rejects.toThrow('bytes');
    await expect(check([], null)).rejects.toThrow('too few bytes');
  });

  it('fails at the first byte past maxBytes, and passes a video of exactly maxBytes', async () => {
    const video = Buffer.concat([box('ftyp'), Buffer.alloc(1000, 1)]);
    expect((await check([video], null, video.length)).equals(video)).toBe(true);
    const failure = check([video.subarray(0, 500), video.subarray(500)], null, video.length - 1);
    await expect(failure).rejects.toBeInstanceOf(VideoTooLargeError);
    await expect(failure).rejects.toThrow(`video larger than VIDEO_MAX_BYTES (${video.length - 1} bytes)`);
  });
});

describe('parseByteRange', () => {
  it.each([
    [undefined, undefined],
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-10', { start: 990, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    ['bytes=999-', { start: 999, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=99999999-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-1', undefined],
    ['bytes=0-1,5-9', undefined],
    ['items=0-1', undefined],
  ])('%s of 1000 bytes -> %j', (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });
});
