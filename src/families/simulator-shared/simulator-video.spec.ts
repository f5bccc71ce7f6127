import { sampleShapeOf } from './simulator-video';

describe('sampleShapeOf: what the simulator makes for what a task asked', () => {
  it('makes the asked seconds, resolution in its ratio and audio', () => {
    expect(sampleShapeOf({ seconds: 6, resolution: '720p', aspectRatio: '9:16', audio: false })).toEqual({
      seconds: 6,
      width: 720,
      height: 1280,
      audio: false,
    });
  });

  it('rounds part seconds up and keeps within 1 to 60', () => {
    expect(sampleShapeOf({ seconds: 5.5 }).seconds).toBe(6);
    expect(sampleShapeOf({ seconds: 0 }).seconds).toBe(1);
    expect(sampleShapeOf({ seconds: 600 }).seconds).toBe(60);
  });

  it('takes an exact frame over a resolution, made even', () => {
    expect(sampleShapeOf({ size: '1281x721', resolution: '480p' })).toMatchObject({ width: 1282, height: 722 });
    expect(sampleShapeOf({ size: '720*1280' })).toMatchObject({ width: 720, height: 1280 });
  });

  it('delivers what is unsaid long, sharp and with sound (never short of a default)', () => {
    expect(sampleShapeOf({})).toEqual({ seconds: 10, width: 1920, height: 1080, audio: true });
    expect(sampleShapeOf({ resolution: '768P' })).toMatchObject({ width: 1366, height: 768 });
    expect(sampleShapeOf({ resolution: 'standard', aspectRatio: 'wide' })).toMatchObject({ width: 1920, height: 1080 });
  });
});
