import { AppError } from '../common/errors/app-error';
import { commonFieldsOf, namingAskedModel, namingSentDurationField } from './submit-common-fields';

const refusal = async (body: Record<string, unknown>) => {
  const error = await commonFieldsOf(body).then(
    () => null,
    (thrown: AppError) => thrown,
  );
  return error && { message: error.message, param: error.options.param };
};

describe('the fields every submit shares', () => {
  it('routes by model: missing, blank or null is required, another type is not a string', async () => {
    expect(await refusal({})).toEqual({ message: 'model is required', param: 'model' });
    expect(await refusal({ model: ' ' })).toEqual({ message: 'model is required', param: 'model' });
    expect(await refusal({ model: null })).toEqual({ message: 'model is required', param: 'model' });
    expect(await refusal({ model: ['gamma-2-0'] })).toEqual({ message: 'model must be a string', param: 'model' });
  });

  it("takes OpenAI's seconds, as text or a number, as the duration and says it came as seconds", async () => {
    expect(await commonFieldsOf({ model: 'm', seconds: '4', other: 1 })).toEqual({
      model: 'm',
      body: { model: 'm', duration: 4, other: 1 },
      durationField: 'seconds',
    });
    expect((await commonFieldsOf({ model: 'm', seconds: 8 })).body).toEqual({ model: 'm', duration: 8 });
    // A duration sent beside it wins; an empty form field is none.
    expect(await commonFieldsOf({ model: 'm', duration: 5, seconds: '8' })).toMatchObject({ body: { model: 'm', duration: 5 } });
    expect(await commonFieldsOf({ model: 'm', seconds: '' })).toEqual({ model: 'm', body: { model: 'm' }, durationField: 'duration' });
  });

  it.each([['-5'], ['0'], [-5], [0], [4.5], ['four'], [['5']], [null]])('refuses seconds %j with one message', async (seconds) => {
    expect(await refusal({ model: 'm', seconds })).toEqual({
      message: 'seconds must be a whole number of seconds, 1 or more',
      param: 'seconds',
    });
  });

  it("names seconds in a family's duration refusal when the client sent seconds", () => {
    const error = namingSentDurationField(AppError.invalid('duration must be 5 or 10 seconds for k', 'duration'), 'seconds') as AppError;
    expect({ message: error.message, param: error.options.param }).toEqual({
      message: 'seconds must be 5 or 10 seconds for k',
      param: 'seconds',
    });
    const other = AppError.invalid('prompt is required', 'prompt');
    expect(namingSentDurationField(other, 'seconds')).toBe(other);
  });
});

describe('namingAskedModel: a refusal names the model as the client named it', () => {
  it("replaces the entry's id where it stands alone, never inside another id; leaves other errors as they are", () => {
    const error = AppError.invalid('seconds must be 5 or 10 seconds for kling-v2-5-turbo', 'seconds');
    const named = namingAskedModel(error, 'kling-v2-5-turbo', 'fal-kling-v2-5-turbo-pro') as AppError;
    expect({ message: named.message, param: named.options.param }).toEqual({
      message: 'seconds must be 5 or 10 seconds for fal-kling-v2-5-turbo-pro',
      param: 'seconds',
    });
    const inside = AppError.invalid('use kling-v2-5-turbo-pro instead', 'model');
    expect(namingAskedModel(inside, 'kling-v2-5-turbo', 'x')).toBe(inside);
    expect(namingAskedModel(error, 'kling-v2-5-turbo', undefined)).toBe(error);
    const plain = new Error('kling-v2-5-turbo');
    expect(namingAskedModel(plain, 'kling-v2-5-turbo', 'x')).toBe(plain);
  });
});
