import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsNumber, IsString, Min, validate, ValidateNested } from 'class-validator';
import { AppError } from '../errors/app-error';
import { ColumnLength, IsOptionalOrEmpty, IsRequired, MaxUtf16Length, RequestValidationPipe, validBody } from './validation';

describe('validBody', () => {
  class Media {
    @IsIn(['image', 'video'], { message: '$property must be one of image, video' }) type: string;
    @IsRequired() @IsString({ message: '$property is required' }) url: string;
  }
  class Body {
    @IsRequired() @IsString() prompt: string;
    @IsOptionalOrEmpty() @IsString() size?: string;
    @IsOptionalOrEmpty()
    @IsNumber({}, { message: '$property must be an integer' })
    @IsInt({ message: 'duration must be an integer between 3 and 15' })
    @Min(3, { message: 'duration must be an integer between 3 and 15' })
    duration?: number;
    @IsOptionalOrEmpty()
    @IsArray()
    @ValidateNested({ each: true, message: '$property must be an object' })
    @Type(() => Media)
    media?: Media[];
  }
  const refused = async (body: Record<string, unknown>) => {
    try {
      await validBody(Body, body);
    } catch (error) {
      return { message: (error as AppError).message, param: (error as AppError).options.param };
    }
    return null;
  };

  it('names the dotted field whose JSON type is wrong, null included, and never coerces', async () => {
    expect(await refused({ prompt: 'p', size: ['720P'] })).toEqual({ message: 'size must be a string', param: 'size' });
    expect(await refused({ prompt: 'p', size: null })).toEqual({ message: 'size must be a string', param: 'size' });
    expect(await refused({ prompt: null })).toEqual({ message: 'prompt must be a string', param: 'prompt' });
    expect(await refused({ prompt: 'p', duration: '5' })).toEqual({ message: 'duration must be an integer', param: 'duration' });
    expect(await refused({ prompt: 'p', duration: [5] })).toEqual({ message: 'duration must be an integer', param: 'duration' });
  });

  it('says "required" for a missing or blank text, and the range after the type', async () => {
    expect(await refused({})).toEqual({ message: 'prompt is required', param: 'prompt' });
    expect(await refused({ prompt: '  ' })).toEqual({ message: 'prompt is required', param: 'prompt' });
    expect(await refused({ prompt: 'p', duration: 5.5 })).toEqual({
      message: 'duration must be an integer between 3 and 15',
      param: 'duration',
    });
  });

  it('names array elements by index', async () => {
    expect(await refused({ prompt: 'p', media: [{ type: 'image', url: 'u' }, 'x'] })).toEqual({
      message: 'media[1] must be an object',
      param: 'media[1]',
    });
    expect(await refused({ prompt: 'p', media: [{ type: 'audio', url: 'u' }] })).toEqual({
      message: 'media[0].type must be one of image, video',
      param: 'media[0].type',
    });
    expect(await refused({ prompt: 'p', media: [{ type: 'image' }] })).toEqual({
      message: 'media[0].url is required',
      param: 'media[0].url',
    });
  });

  it('takes an empty string as not given, drops unknown fields, and returns an instance', async () => {
    const body = await validBody(Body, { prompt: 'p', size: '', duration: '', extra: 1 });
    expect(body).toBeInstanceOf(Body);
    expect({ ...body }).toEqual({ prompt: 'p', size: '', duration: '' });
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

describe('RequestValidationPipe on admin input (unknown fields refused)', () => {
  class Price {
    @IsString() model: string;
    @IsInt() @Min(0) price: number;
  }

  it('names every bad field in one 400: the first as param, each in fields, the messages joined', async () => {
    const error = await new RequestValidationPipe()
      .transform({ model: 7, price: -1, colour: 'red' }, { type: 'body', metatype: Price })
      .catch((caught: AppError) => caught);
    expect(error).toBeInstanceOf(AppError);
    const { message, options } = error as AppError;
    expect(options.fields).toEqual(
      expect.arrayContaining([
        { param: 'model', message: 'model must be a string' },
        { param: 'price', message: 'price must not be less than 0' },
        { param: 'colour', message: 'property colour should not exist' },
      ]),
    );
    expect(options.fields).toHaveLength(3);
    expect(options.param).toBe(options.fields![0].param);
    expect(message).toBe(options.fields!.map((problem) => problem.message).join('; '));
  });
});
