import { truncateBetaPrompt } from './beta-prompt';

describe('family B prompt truncation', () => {
  it('keeps 5000 non-Chinese characters', () => {
    expect(truncateBetaPrompt('a'.repeat(5000))).toEqual({ prompt: 'a'.repeat(5000), truncated: false });
    expect(truncateBetaPrompt('a'.repeat(6000))).toEqual({ prompt: 'a'.repeat(5000), truncated: true });
  });

  it('keeps 2500 Chinese characters', () => {
    expect(truncateBetaPrompt('猫'.repeat(3000)).prompt).toBe('猫'.repeat(2500));
    expect(truncateBetaPrompt('猫'.repeat(2500)).truncated).toBe(false);
  });

  it('counts a Chinese character double in a mixed prompt', () => {
    const mixed = 'a'.repeat(1000) + '猫'.repeat(2500);
    expect(truncateBetaPrompt(mixed).prompt).toBe('a'.repeat(1000) + '猫'.repeat(2000));
    expect(truncateBetaPrompt('a'.repeat(4999) + '猫').prompt).toBe('a'.repeat(4999));
    expect(truncateBetaPrompt('，'.repeat(2600)).prompt).toHaveLength(2500);
  });

  it('never splits a surrogate pair', () => {
    const result = truncateBetaPrompt('a'.repeat(4999) + '😀😀');
    expect(result.prompt).toBe('a'.repeat(4999) + '😀');
  });
});
