import { normalizeSubmitBody } from './submit-body';

describe('submit body normalization', () => {
  it('turns multipart strings back into numbers, booleans and a metadata object', () => {
    const { body } = normalizeSubmitBody(
      { model: 'alpha/v6', duration: '8', images: 'https://x/a.png', metadata: '{"seed":"3","water_mark":"true","quality":"720p"}' },
      undefined,
      true,
    );
    expect(body).toEqual({
      model: 'alpha/v6',
      duration: 8,
      images: ['https://x/a.png'],
      metadata: { seed: 3, water_mark: true, quality: '720p' },
    });
  });

  it('refuses a metadata field that is not JSON', () => {
    expect(() => normalizeSubmitBody({ metadata: 'quality=720p' }, undefined, true)).toThrow('metadata must be a JSON object');
  });

  it('refuses what the JSON escapes of a metadata field decode to when no database can store it, naming the field', () => {
    expect(() => normalizeSubmitBody({ metadata: '{"negative_prompt":"a\\u0000b"}' }, undefined, true)).toThrow(
      expect.objectContaining({
        message: 'metadata.negative_prompt must not contain a NUL character (U+0000)',
        options: { param: 'metadata.negative_prompt' },
      }),
    );
  });
});
