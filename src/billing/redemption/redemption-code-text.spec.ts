import { hashRedemptionCode, newRedemptionCode, normalizeRedemptionCode, redemptionCodeHint } from './redemption-code-text';

describe('redemption code text', () => {
  it('makes codes of five groups of four from an alphabet without I, L, O or U, each one new', () => {
    const codes = new Set(Array.from({ length: 1000 }, newRedemptionCode));
    expect(codes.size).toBe(1000);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
  });

  it('reads a code as typed: any case, spaces or dashes, I and L as 1, O as 0', () => {
    const code = 'AB1C-D0EF-GH12-JK34-MN56';
    const typed = ' ab1c d0ef-ghl2 jk34-mn56 ';
    expect(normalizeRedemptionCode(typed)).toBe(normalizeRedemptionCode(code));
    expect(normalizeRedemptionCode('abic-doef')).toBe('AB1CD0EF');
    expect(hashRedemptionCode(normalizeRedemptionCode(typed))).toBe(hashRedemptionCode(normalizeRedemptionCode(code)));
    expect(redemptionCodeHint(normalizeRedemptionCode(code))).toBe('MN56');
  });
});
