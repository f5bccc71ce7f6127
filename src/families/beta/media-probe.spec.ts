import { sniffFormat, totalSizeOf } from './media-probe';

describe('media probe helpers', () => {
  it('recognizes the accepted formats by their first bytes', () => {
    expect(sniffFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('jpeg');
    expect(sniffFormat(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('png');
    expect(sniffFormat(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffFormat(Buffer.from('\x00\x00\x00\x20ftypisom', 'latin1'))).toBe('mp4');
    expect(sniffFormat(Buffer.from('\x00\x00\x00\x14ftypqt  ', 'latin1'))).toBe('mp4');
    expect(sniffFormat(Buffer.from('<!doctype html>'))).toBe('unknown');
    expect(sniffFormat(Buffer.from('GIF89a'))).toBe('unknown');
  });

  it('reads the total size from a ranged or a full answer', () => {
    expect(totalSizeOf(206, { 'content-range': 'bytes 0-15/12345' })).toBe(12345);
    expect(totalSizeOf(206, { 'content-range': 'bytes 0-15/*' })).toBeNull();
    expect(totalSizeOf(200, { 'content-length': '999' })).toBe(999);
    expect(totalSizeOf(200, {})).toBeNull();
  });
});
