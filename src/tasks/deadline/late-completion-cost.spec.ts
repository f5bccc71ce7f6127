import { lateCompletionCostUsd } from './late-completion-cost';

const ASKED = { seconds: 5, resolution: '720p', audio: false, fastMotion: false };
const ROUTE_COST = [{ resolution: '720p', unit: 'second' as const, usd: 0.1 }];

describe('lateCompletionCostUsd', () => {
  it("takes the provider's own money figure first, else its units at the channel's usd_per_unit", () => {
    const ticks = { unit: 'usd_ticks' as const, amount: 2_500_000_000 };
    expect(lateCompletionCostUsd('succeeded', ticks, ASKED, { usdPerUnit: 9, routeCost: ROUTE_COST })).toBe(0.25);
    const credits = { unit: 'credits' as const, amount: 40 };
    expect(lateCompletionCostUsd('succeeded', credits, ASKED, { usdPerUnit: 0.005, routeCost: ROUTE_COST })).toBe(0.2);
  });

  it("a video made with no report of the provider's costs the route's cost at what was asked", () => {
    expect(lateCompletionCostUsd('succeeded', null, ASKED, { usdPerUnit: null, routeCost: ROUTE_COST })).toBe(0.5);
  });

  it('a failure with no report, or nothing the operator set, costs nothing known', () => {
    expect(lateCompletionCostUsd('failed', null, ASKED, { usdPerUnit: null, routeCost: ROUTE_COST })).toBeNull();
    expect(lateCompletionCostUsd('succeeded', null, ASKED, { usdPerUnit: null, routeCost: null })).toBeNull();
  });
});
