import { buildBetaSubmitBody } from './beta-protocol';
import type { BetaTaskRequest } from './beta-request';

const base: BetaTaskRequest = {
  capability: 't2v',
  prompt: 'p',
  media: [],
  resolution: '1080P',
  duration: 5,
  ratio: '16:9',
  watermark: null,
  seed: null,
  audioSetting: null,
};

describe('family B submit body', () => {
  it('t2v sends resolution, ratio and duration, and optional watermark and seed', () => {
    expect(buildBetaSubmitBody({ ...base, watermark: false, seed: 0 }, 'up')).toEqual({
      model: 'up',
      input: { prompt: 'p' },
      parameters: { resolution: '1080P', ratio: '16:9', duration: 5, watermark: false, seed: 0 },
    });
  });

  it('i2v never sends a ratio', () => {
    const media = [{ type: 'first_frame' as const, url: 'https://x/a.png' }];
    expect(buildBetaSubmitBody({ ...base, capability: 'i2v', media }, 'm')).toEqual({
      model: 'm',
      input: { prompt: 'p', media },
      parameters: { resolution: '1080P', duration: 5 },
    });
  });

  it('video-edit sends neither duration nor ratio, but its audio setting', () => {
    const media = [{ type: 'video' as const, url: 'https://x/a.mp4' }];
    expect(buildBetaSubmitBody({ ...base, capability: 'video-edit', media, duration: 7, audioSetting: 'origin' }, 'm').parameters).toEqual({
      resolution: '1080P',
      audio_setting: 'origin',
    });
  });
});
