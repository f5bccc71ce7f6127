import { IsString, validate } from 'class-validator';
import { AppError } from './app-error';
import { assertBodyShape, BodyShape, ColumnLength, MaxUtf16Length, modelOf } from './validation';

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return { message: (error as AppError).message, param: (error as AppError).options.param };
  }
  return null;
};

describe('assertBodyShape', () => {
  const shape: BodyShape = { size: 'string', duration: 'integer', metadata: { seed: 'integer', input: { media: ['array', 'an array of {type, url} elements'] } } };

  it('names the dotted field whose JSON type is wrong, null included', () => {
    expect(refusal(() => assertBodyShape({ size: ['720P'] }, shape))).toEqual({ message: 'size must be a string', param: 'size' });
    expect(refusal(() => assertBodyShape({ size: null }, shape))).toEqual({ message: 'size must be a string', param: 'size' });
    expect(refusal(() => assertBodyShape({ metadata: [] }, shape))).toEqual({ message: 'metadata must be an object', param: 'metadata' });
    expect(refusal(() => assertBodyShape({ metadata: { input: { media: 'x' } } }, shape))).toEqual({
      message: 'metadata.input.media must be an array of {type, url} elements',
      param: 'metadata.input.media',
    });
  });

  it('leaves absent fields, empty form fields, unknown fields and ranges to the parsers', () => {
    expect(refusal(() => assertBodyShape({ size: '', duration: 5.5, metadata: { seed: '7', other: [1] }, extra: {} }, shape))).toBeNull();
    expect(refusal(() => assertBodyShape({ duration: '5 s' }, shape))).toEqual({ message: 'duration must be an integer', param: 'duration' });
  });
});

describe('modelOf', () => {
  it('requires a string model', () => {
    expect(refusal(() => modelOf({}))).toEqual({ message: 'model is required', param: 'model' });
    expect(refusal(() => modelOf({ model: ' ' }))).toEqual({ message: 'model is required', param: 'model' });
    expect(refusal(() => modelOf({ model: ['gamma-2-0'] }))).toEqual({ message: 'model must be a string', param: 'model' });
    expect(modelOf({ model: 'alpha/v6' })).toBe('alpha/v6');
  });
});

describe('length rules', () => {
  class Sample {
    @IsString() @MaxUtf16Length(4) prompt: string;
    @IsString() @ColumnLength(1, 4) group: string;
  }
  const check = async (prompt: string, group: string) =>
    (await validate(Object.assign(new Sample(), { prompt, group }))).flatMap((error) => Object.values(error.constraints ?? {}));

  it('counts a prompt in UTF-16 code units, as the provider does', async () => {
    expect(await check('\u{1F98A}\u{1F98A}', 'g')).toEqual([]);
    expect(await check('\u{1F98A}\u{1F98A}a', 'g')).toEqual([
      'prompt must be at most 4 characters (the provider counts an emoji or other character outside the Basic Multilingual Plane as 2; this prompt counts 5)',
    ]);
    expect(await check('abcde', 'g')).toEqual(['prompt must be at most 4 characters']);
  });

  it('counts a column value in code points, variation selectors included', async () => {
    expect(await check('a', 'gggg')).toEqual([]);
    expect(await check('a', 'gggg\uFE0F')).toEqual(['group must be shorter than or equal to 4 characters']);
    expect(await check('a', '')).toEqual(['group must be longer than or equal to 1 characters']);
  });
});
