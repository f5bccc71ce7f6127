import { parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads seconds, minutes, hours and days, and 0 for off', () => {
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('12h')).toBe(43_200_000);
    expect(parseDuration('90d')).toBe(7_776_000_000);
  });

  it('refuses anything else', () => {
    for (const text of ['', '90', '1w', '-1d', '1.5h', ' 1d', '1D', 'd']) expect(parseDuration(text)).toBeNull();
  });
});
