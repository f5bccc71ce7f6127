import { normalizeSubmitBody } from './submit-body';

describe('submit body normalization', () => {
  it('turns multipart strings back into numbers, booleans and a metadata object', () => {
    const { body, durationField } = normalizeSubmitBody(
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
    expect(durationField).toBe('duration');
  });

  it('takes OpenAI seconds as the duration and names it', () => {
    const { body, durationField } = normalizeSubmitBody({ model: 'm', seconds: '4' }, undefined, false);
    expect(body).toEqual({ model: 'm', duration: 4 });
    expect(durationField).toBe('seconds');
    expect(() => normalizeSubmitBody({ seconds: 'four' }, undefined, false)).toThrow('seconds must be a whole number of seconds');
    expect(normalizeSubmitBody({ duration: 5, seconds: '8' }, undefined, false).body).toEqual({ duration: 5 });
  });

  it('refuses a metadata field that is not JSON', () => {
    expect(() => normalizeSubmitBody({ metadata: 'quality=720p' }, undefined, true)).toThrow('metadata must be a JSON object');
  });
});
