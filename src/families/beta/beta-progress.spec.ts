import { betaProgress } from './beta-upstream.adapter';

describe('family B progress estimate', () => {
  it('is 0 while waiting upstream and grows while running, by model', () => {
    expect(betaProgress('queued', 't2v', 60_000)).toBe(0);
    expect(betaProgress('running', 't2v', 0)).toBe(1);
    expect(betaProgress('running', 't2v', 62_500)).toBe(50);
    expect(betaProgress('running', 'video-edit', 107_500)).toBe(50);
    expect(betaProgress('running', 't2v', 10 * 60_000)).toBe(95);
    expect(betaProgress('succeeded', 't2v', 1)).toBeUndefined();
  });
});
