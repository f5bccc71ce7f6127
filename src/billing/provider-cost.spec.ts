import { CostRow, providerCostUsd } from './provider-cost';

const shape = { seconds: 5, resolution: '720p', audio: false };
const cost: CostRow[] = [
  { resolution: '720p', unit: 'second', usd: 0.05, audio_usd: 0.1 },
  { resolution: '1080p', unit: 'second', usd: 0.1 },
];
const none = { usage: null, usdPerUnit: null, routeCost: null, shape, askedSeconds: 5 };

describe('what a task cost the operator', () => {
  it("takes xAI's ticks as they are, before anything else", () => {
    expect(providerCostUsd({ ...none, usage: { unit: 'usd_ticks', amount: 3_500_000_000 }, usdPerUnit: 9, routeCost: cost })).toBe(0.35);
  });

  it("multiplies fal's units, Vidu's credits and Replicate's seconds by the channel's usd_per_unit", () => {
    expect(providerCostUsd({ ...none, usage: { unit: 'fal_billable_units', amount: 5 }, usdPerUnit: 0.07 })).toBe(0.35);
    expect(providerCostUsd({ ...none, usage: { unit: 'credits', amount: 20 }, usdPerUnit: 0.003125 })).toBe(0.0625);
    expect(providerCostUsd({ ...none, usage: { unit: 'predict_seconds', amount: 61.3 }, usdPerUnit: 0.001525 })).toBe(0.093483);
  });

  it("falls back to the route's cost at what was delivered when the units have no price", () => {
    expect(providerCostUsd({ ...none, usage: { unit: 'credits', amount: 20 }, routeCost: cost })).toBe(0.25);
    expect(providerCostUsd({ ...none, routeCost: cost, shape: { seconds: 4, resolution: '1080p', audio: false } })).toBe(0.4);
    expect(providerCostUsd({ ...none, routeCost: cost, shape: { ...shape, audio: true } })).toBe(0.5);
  });

  it('prices a per-clip cost at the asked duration', () => {
    const clips: CostRow[] = [
      { resolution: '720p', unit: 'clip', duration: 5, usd: 0.3 },
      { resolution: '720p', unit: 'clip', duration: 10, usd: 0.6 },
    ];
    expect(providerCostUsd({ ...none, routeCost: clips, shape: { ...shape, seconds: 7 }, askedSeconds: 10 })).toBe(0.6);
  });

  it('is unknown without a report in money, a unit price or a route cost', () => {
    expect(providerCostUsd(none)).toBeNull();
    expect(providerCostUsd({ ...none, usage: { unit: 'fal_billable_units', amount: 5 } })).toBeNull();
    expect(providerCostUsd({ ...none, routeCost: cost, shape: null })).toBeNull();
  });
});
