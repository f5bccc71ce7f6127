import type { PriceRow } from './price-of';
import { deliveredShape, PriceBasis, settle } from './settlement';

const perSecond = (resolution: string, price: number, audioPrice: number | null = null): PriceRow => ({
  resolution,
  unit: 'second',
  duration: 0,
  price,
  audioPrice,
});
const perClip = (resolution: string, duration: number, price: number): PriceRow => ({
  resolution,
  unit: 'clip',
  duration,
  price,
  audioPrice: null,
});

const SECONDS_RULES = [perSecond('720p', 10, 15), perSecond('1080p', 20, 30)];
const basis = (asked: Partial<PriceBasis['asked']>, rules = SECONDS_RULES, ratio = 1): PriceBasis => ({
  rules,
  ratio,
  asked: { resolution: '1080p', seconds: 10, audio: false, fastMotion: false, ...asked },
});
/** A landscape 16:9 frame of that short edge. */
const video = (durationSeconds: number, shortEdge: number, hasAudio = false) => ({
  durationSeconds,
  width: Math.round((shortEdge * 16) / 9),
  height: shortEdge,
  hasAudio,
});

describe('settle: the final charge on what was delivered', () => {
  it.each([
    ['exact (5.04 s is 5 s)', basis({ seconds: 5 }), 100, video(5.04, 1080), 100, 'delivered'],
    ['short: asked 10 s, got 5 s', basis({}), 200, video(5, 1080), 100, 'delivered'],
    ['smaller: asked 1080p, got 720p', basis({}), 200, video(10, 720), 100, 'delivered'],
    ['short and smaller', basis({}), 200, video(4.6, 720), 50, 'delivered'],
    ['longer: never more than charged', basis({ seconds: 5 }), 100, video(12, 1080), 100, 'delivered'],
    ['larger: never more than charged', basis({ resolution: '720p' }), 100, video(10, 2160), 100, 'delivered'],
    ['no audio where audio was asked', basis({ audio: true }), 300, video(10, 1080, false), 200, 'delivered'],
    ['audio nobody asked for costs nothing more', basis({}), 200, video(10, 1080, true), 200, 'delivered'],
    ['between two names takes the lower one (900 -> 720p)', basis({}), 200, video(10, 900), 100, 'delivered'],
    ['below every priced name: the lowest price', basis({}), 200, video(10, 480), 100, 'delivered'],
    [
      'a portrait frame by its short edge',
      basis({}),
      200,
      { durationSeconds: 10, width: 720, height: 1280, hasAudio: false },
      100,
      'delivered',
    ],
    ['the group ratio of the submit, ceiled', basis({}, SECONDS_RULES, 1.25), 250, video(3, 720), 38, 'delivered'],
    ['fast motion as asked', basis({ fastMotion: true }), 400, video(5, 1080), 200, 'delivered'],
    ['less than half a second is nothing', basis({}), 200, video(0.4, 1080), 0, 'delivered'],
    ['unreadable: as asked', basis({}), 200, null, 200, 'as_asked'],
    ['no basis kept: as asked', null, 200, video(5, 720), 200, 'as_asked'],
    ['only a larger resolution priced: its price', basis({}, [perSecond('4k', 20)]), 200, video(5, 720), 100, 'delivered'],
  ])('%s', (_name, taskBasis, charged, delivered, quota, settled) => {
    const result = settle(charged, taskBasis, delivered);
    expect(result).toMatchObject({ quota, settled, refund: charged - quota });
  });

  it('per-clip prices settle on resolution and audio, not on seconds', () => {
    const rules = [perClip('720p', 5, 60), perClip('720p', 8, 120), perClip('1080p', 5, 120), perClip('1080p', 8, 240)];
    const asked = basis({ seconds: 8 }, rules);
    expect(settle(240, asked, video(5, 1080))).toMatchObject({ quota: 240, refund: 0 });
    expect(settle(240, asked, video(8, 720))).toMatchObject({ quota: 120, refund: 120 });
  });

  it('a model priced only at any resolution settles on seconds', () => {
    expect(settle(50, basis({ resolution: '720p', seconds: 5 }, [perSecond('*', 10)]), video(3, 720))).toMatchObject({ quota: 30 });
  });

  it('says what was asked and what was delivered', () => {
    expect(settle(200, basis({ audio: true }), video(5.2, 720, false)).detail).toBe(
      'asked 10s 1080p with audio, delivered 5s 720p no audio',
    );
    expect(settle(200, basis({}), null)).toMatchObject({ delivered: null, detail: 'charged as asked: the video could not be read' });
  });
});

describe('the delivered shape in the catalog terms', () => {
  it.each([
    [480, '480p'],
    [720, '720p'],
    [1080, '1080p'],
    [2160, '4k'],
    [900, '720p'],
    [1079, '720p'],
    [180, '240p'],
    [768, '720p'],
  ])('short edge %d is %s', (edge, name) => {
    expect(deliveredShape(video(5, edge)).resolution).toBe(name);
  });

  it("takes the model's own names too (768p)", () => {
    expect(deliveredShape(video(6, 768), ['768p', '1080p']).resolution).toBe('768p');
  });

  it('rounds the duration to the nearest second', () => {
    expect([4.49, 4.5, 5.04, 9.96].map((seconds) => deliveredShape(video(seconds, 720)).seconds)).toEqual([4, 5, 5, 10]);
  });
});

describe('per-clip prices whatever the delivered length', () => {
  it('settles a 7 s clip of an 8 s ask at the 8 s price of the delivered resolution', () => {
    const rules: PriceRow[] = [
      { resolution: '720p', unit: 'clip', duration: 5, price: 60, audioPrice: null },
      { resolution: '720p', unit: 'clip', duration: 8, price: 120, audioPrice: null },
    ];
    const asked: PriceBasis = { rules, ratio: 1, asked: { resolution: '720p', seconds: 8, audio: false, fastMotion: false } };
    expect(settle(120, asked, video(7, 720))).toMatchObject({ quota: 120, settled: 'delivered' });
  });
});
