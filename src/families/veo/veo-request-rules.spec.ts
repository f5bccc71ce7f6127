import { planVeoRequest } from './veo-request-rules';
import type { VeoVideoRequestDto } from './veo-request.dto';

const plan = (model: string, body: Partial<VeoVideoRequestDto>, options: { seedSent?: boolean; file?: boolean } = {}) =>
  planVeoRequest(
    model,
    { model, ...body },
    {
      seedSent: options.seedSent ?? false,
      inputReferenceFile: options.file ? { buffer: Buffer.from('x') } : undefined,
    },
  );
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { param: (error as { options?: { param?: string } }).options?.param, message: (error as Error).message };
  }
  throw new Error('not refused');
};

describe('Veo request rules', () => {
  it('defaults to 8 s, 16:9, 720p and maps a pixel size to ratio and resolution', () => {
    expect(plan('veo-3.1-generate-preview', { prompt: 'p' }).request).toEqual({
      prompt: 'p',
      durationSeconds: 8,
      aspectRatio: '16:9',
      resolution: '720p',
    });
    expect(plan('veo-3.1-generate-preview', { prompt: 'p', size: '2160x3840' }).request).toMatchObject({
      aspectRatio: '9:16',
      resolution: '4k',
    });
    expect(
      plan('veo-3.0-generate-001', {
        prompt: 'p',
        duration: 4,
        aspect_ratio: '9:16',
        negative_prompt: 'blur',
        metadata: { personGeneration: 'allow_adult' },
      }).request,
    ).toEqual({
      prompt: 'p',
      durationSeconds: 4,
      aspectRatio: '9:16',
      resolution: '720p',
      negativePrompt: 'blur',
      extraParameters: { personGeneration: 'allow_adult' },
    });
  });

  it('takes the first frame as a file, a URL, {image_url} or a data URI, and the last frame on Veo 3.1', () => {
    expect(plan('veo-3.0-generate-001', {}, { file: true }).image).toEqual({ file: { buffer: Buffer.from('x') } });
    expect(plan('veo-3.0-generate-001', { input_reference: { image_url: 'https://a.example/i.png' } }).image).toEqual({
      url: 'https://a.example/i.png',
    });
    const both = plan('veo-3.1-fast-generate-preview', {
      input_reference: 'https://a.example/i.png',
      last_frame: 'data:image/png;base64,AAAA',
    });
    expect(both).toMatchObject({ image: { url: 'https://a.example/i.png' }, lastFrame: { dataUri: 'data:image/png;base64,AAAA' } });
  });

  it.each([
    ['veo-3.1-generate-preview', { prompt: 'p', duration: 5 }, {}, 'duration'],
    ['veo-3.0-fast-generate-001', { prompt: 'p', resolution: '4k' }, {}, 'resolution'],
    ['veo-3.1-generate-preview', { prompt: 'p', resolution: '1080p', duration: 6 }, {}, 'duration'],
    ['veo-3.1-generate-preview', { prompt: 'p', size: '3840x2160', duration: 4 }, {}, 'duration'],
    ['veo-3.1-generate-preview', { prompt: 'p', size: '1280x720', aspect_ratio: '16:9' }, {}, 'size'],
    ['veo-3.1-generate-preview', { prompt: 'p', size: '640x480' }, {}, 'size'],
    ['veo-3.1-generate-preview', {}, {}, 'prompt'],
    ['veo-3.1-generate-preview', { prompt: '   ' }, {}, 'prompt'],
    ['veo-3.0-generate-001', { input_reference: 'https://a.example/i.png', last_frame: 'https://a.example/l.png' }, {}, 'last_frame'],
    ['veo-3.1-generate-preview', { prompt: 'p', last_frame: 'https://a.example/l.png' }, {}, 'last_frame'],
    ['veo-3.1-generate-preview', { prompt: 'p' }, { seedSent: true }, 'seed'],
    ['veo-3.1-generate-preview', { prompt: 'p', metadata: { sampleCount: 2 } }, {}, 'metadata.sampleCount'],
    ['veo-3.1-generate-preview', { prompt: 'p', input_reference: 'https://a.example/i.png' }, { file: true }, 'input_reference'],
  ])('%s %j is refused naming the field', (model, body, options, param) => {
    expect(refusal(() => plan(model, body as Partial<VeoVideoRequestDto>, options)).param).toBe(param);
  });
});
