import { nearestAspectRatio, parsePixelSize } from './pixel-size';

describe('pixel sizes', () => {
  it('reads pixel sizes', () => {
    expect(parsePixelSize('1280x720')).toEqual({ width: 1280, height: 720 });
    expect(parsePixelSize('720p')).toBeNull();
  });

  it('finds the nearest listed aspect ratio', () => {
    expect(nearestAspectRatio(720, 1280, ['16:9', '9:16', '1:1'])).toBe('9:16');
    expect(nearestAspectRatio(2560, 1080, ['16:9', '21:9'])).toBe('21:9');
  });
});
