import { AppError } from '../../common/errors/app-error';
import { parseMinimaxBody } from './minimax-rules';
import type { MinimaxVideoRequestDto } from './minimax-request.dto';

const parse = (body: Partial<MinimaxVideoRequestDto>, model = 'MiniMax-Hailuo-2.3', hasFile = false) =>
  parseMinimaxBody({ model, prompt: 'p', ...body }, model, hasFile);
const refusal = (run: () => unknown): { param?: string; message: string } => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return { param: (error as AppError).options.param, message: (error as Error).message };
  }
  throw new Error('not refused');
};

describe('MiniMax request rules', () => {
  it('defaults to 6 s at 768P and reads size by its short side', () => {
    expect(parse({})).toMatchObject({ duration: 6, resolution: '768P' });
    expect(parse({ size: '1920x1080', duration: 6 })).toMatchObject({ resolution: '1080P' });
    expect(parse({ resolution: '768p', duration: 10 })).toMatchObject({ resolution: '768P', duration: 10 });
  });

  it('refuses durations other than 6 and 10, and 10 s at 1080P', () => {
    expect(refusal(() => parse({ duration: 5 }))).toEqual({
      param: 'duration',
      message: 'duration must be 6 or 10 seconds for MiniMax-Hailuo-2.3',
    });
    expect(refusal(() => parse({ duration: 10, resolution: '1080P' })).message).toMatch(/^duration must be 6 at 1080P/);
  });

  it('keeps 2.3-Fast image-to-video only and 512P for -02 image-to-video only', () => {
    expect(refusal(() => parse({}, 'MiniMax-Hailuo-2.3-Fast')).message).toMatch(/image-to-video only/);
    expect(parse({ input_reference: 'https://x.example/f.png' }, 'MiniMax-Hailuo-2.3-Fast')).toMatchObject({
      firstFrame: { field: 'input_reference' },
    });
    expect(parse({}, 'MiniMax-Hailuo-2.3-Fast', true)).toMatchObject({ resolution: '768P' });
    expect(refusal(() => parse({ resolution: '512P' }, 'MiniMax-Hailuo-02')).message).toMatch(/^resolution must be one of 768P, 1080P/);
    expect(parse({ resolution: '512P', input_reference: 'https://x.example/f.png' }, 'MiniMax-Hailuo-02')).toMatchObject({
      resolution: '512P',
    });
    expect(refusal(() => parse({ resolution: '512P', input_reference: 'https://x.example/f.png' })).message).toMatch(
      /^resolution must be one of 768P, 1080P/,
    );
  });

  it('takes last_frame on -02 with a first frame only', () => {
    expect(refusal(() => parse({ last_frame: 'https://x.example/l.png', input_reference: 'https://x.example/f.png' })).message).toMatch(
      /^last_frame is not taken/,
    );
    expect(refusal(() => parse({ last_frame: 'https://x.example/l.png' }, 'MiniMax-Hailuo-02')).message).toMatch(/needs a first frame/);
  });

  it('refuses what MiniMax does not take and metadata keys the gateway sets', () => {
    expect(refusal(() => parse({ negative_prompt: 'blur' })).message).toMatch(/^negative_prompt is not taken/);
    expect(refusal(() => parse({ seed: 3 })).message).toMatch(/^seed is not taken/);
    expect(refusal(() => parse({ aspect_ratio: '9:16' })).message).toMatch(/^aspect_ratio must be 16:9/);
    expect(refusal(() => parse({ size: '1280x720' })).message).toMatch(/^size must be/);
    expect(refusal(() => parse({ size: '1366x768', resolution: '1080P' })).message).toMatch(/^size does not match/);
    expect(refusal(() => parse({ metadata: { duration: 10 } })).message).toBe('metadata.duration is set by the gateway');
    expect(parse({ metadata: { prompt_optimizer: false } }).metadata).toEqual({ prompt_optimizer: false });
  });
});
