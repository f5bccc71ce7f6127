import { planRunwayRequest } from './runway-request-rules';
import type { RunwayVideoRequestDto } from './runway-request.dto';

const plan = (model: string, body: Partial<RunwayVideoRequestDto>) => planRunwayRequest(model, { model, ...body }, {});
const refusal = (model: string, body: Partial<RunwayVideoRequestDto>) => {
  try {
    plan(model, body);
  } catch (error) {
    return { param: (error as { options?: { param?: string } }).options?.param, message: (error as Error).message };
  }
  throw new Error('not refused');
};

describe('Runway request rules', () => {
  it("defaults: 16:9 720p, the model's default duration; veo models priced with audio unless metadata.audio is false", () => {
    expect(plan('gen4.5', { prompt: 'p' })).toEqual({
      request: { mode: 'text', promptText: 'p', ratio: '1280:720', duration: 5, extra: {} },
      frames: [],
      resolution: '720p',
      audio: false,
    });
    expect(plan('veo3.1', { prompt: 'p', aspect_ratio: '9:16', resolution: '1080p' })).toMatchObject({
      request: { ratio: '1080:1920', duration: 8 },
      resolution: '1080p',
      audio: true,
    });
    expect(plan('veo3.1_fast', { prompt: 'p', metadata: { audio: false } })).toMatchObject({
      request: { extra: { audio: false } },
      audio: false,
    });
  });

  it('image-to-video: frames in order, gen4 image ratios from size', () => {
    expect(plan('gen4_turbo', { input_reference: 'https://x/a.png', size: '1584x672', duration: 10 })).toMatchObject({
      request: { mode: 'image', ratio: '1584:672', duration: 10 },
      frames: [{ position: 'first', field: 'input_reference', value: 'https://x/a.png' }],
    });
    expect(
      plan('veo3.1', { input_reference: 'https://x/a.png', last_frame: 'https://x/b.png' }).frames.map((frame) => frame.position),
    ).toEqual(['first', 'last']);
  });

  it.each([
    ['gen4_turbo', {}, 'input_reference', 'gen4_turbo is image-to-video only: input_reference (the first frame) is required'],
    ['gen4.5', { prompt: ' ' }, 'prompt', 'prompt is required for text-to-video'],
    ['gen4.5', { prompt: 'p', duration: 1 }, 'duration', 'duration must be a whole number of seconds from 2 to 10 for gen4.5'],
    ['gen4_turbo', { input_reference: 'u', duration: 7 }, 'duration', 'duration must be 5 or 10 seconds for gen4_turbo'],
    ['gen4.5', { prompt: 'p', size: '1104x832' }, 'size', 'size must be one of 1280x720, 720x1280 for gen4.5 text-to-video'],
    ['gen4.5', { prompt: 'p', size: '1280x720', aspect_ratio: '16:9' }, 'aspect_ratio', 'give size or aspect_ratio, not both'],
    ['gen4.5', { prompt: 'p', resolution: '4k' }, 'resolution', 'resolution must be 720p or 1080p'],
    ['gen4.5', { prompt: 'p', resolution: '1080p' }, 'resolution', 'resolution 1080p is not available for gen4.5 text-to-video at 16:9'],
    [
      'veo3.1',
      { prompt: 'p', aspect_ratio: '1:1' },
      'aspect_ratio',
      'aspect_ratio must be one of 16:9, 9:16 for veo3.1 text-to-video at 720p',
    ],
    ['veo3.1', { prompt: 'p', last_frame: 'u' }, 'last_frame', 'last_frame needs input_reference (the first frame)'],
    [
      'gen4.5',
      { prompt: 'p', negative_prompt: 'n' },
      'negative_prompt',
      'negative_prompt is not supported by gen4.5 (only veo3.1 and veo3.1_fast)',
    ],
    [
      'gen4.5',
      { prompt: 'p', metadata: { promptImage: 'u' } },
      'metadata.promptImage',
      'metadata.promptImage is set by the gateway: use input_reference',
    ],
    [
      'gen4.5',
      { prompt: 'p', metadata: { audio: true } },
      'metadata.audio',
      'metadata.audio is not supported by gen4.5 (only veo3.1 and veo3.1_fast)',
    ],
    ['veo3.1', { prompt: 'p', metadata: { audio: 'yes' } }, 'metadata.audio', 'metadata.audio must be a boolean'],
  ])('%s %j: 400 naming %s', (model, body, param, message) => {
    expect(refusal(model, body as Partial<RunwayVideoRequestDto>)).toEqual({ param, message });
  });

  it('lists the lengths of a model that takes a few', () => {
    expect(refusal('veo3.1', { prompt: 'p', duration: 5 })).toEqual({
      param: 'duration',
      message: 'duration must be 4, 6 or 8 seconds for veo3.1',
    });
  });
});
