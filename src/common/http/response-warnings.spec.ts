import { deprecationHeaders } from './response-warnings';

describe('deprecationHeaders', () => {
  const now = Date.UTC(2026, 0, 1);

  it('dates the Sunset header and the warning, and names the replacement', () => {
    const sunset = Date.UTC(2026, 5, 30) / 1000;
    expect(deprecationHeaders({ sunsetAt: sunset, replacement: 'kling-v3' }, now)).toEqual({
      deprecation: `@${now / 1000}`,
      sunset: 'Tue, 30 Jun 2026 00:00:00 GMT',
      warning: 'model is deprecated and will be refused after 2026-06-30T00:00:00.000Z; use kling-v3',
    });
  });

  it.each([1e15, 2 ** 63, 1e308, Number.MAX_SAFE_INTEGER])(
    'never throws on a date no Date can print (%d, a row stored before sunset_at was bounded): no Sunset, the rest as usual',
    (sunsetAt) => {
      expect(deprecationHeaders({ sunsetAt, replacement: null }, now)).toEqual({
        deprecation: `@${now / 1000}`,
        warning: 'model is deprecated and will be refused',
      });
    },
  );

  it('prints the latest date an entry may take', () => {
    expect(deprecationHeaders({ sunsetAt: 253_402_300_799, replacement: null }, now).sunset).toBe('Fri, 31 Dec 9999 23:59:59 GMT');
  });
});
