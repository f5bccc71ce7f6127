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
});
