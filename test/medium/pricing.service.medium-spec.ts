import { createServiceTestModule, FAKE_FAMILY, type ServiceTestContext } from './support/service-test-module';
import { PriceRuleEntity } from '../../src/billing/price-rule.entity';
import { settle } from '../../src/billing/settlement';

describe('PricingService (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  beforeAll(async () => {
    t = await createServiceTestModule();
    // The catalog merged the fake family's builtin entry at start: fake-1 720p 10 credits/s = 1,000 units/s, audio at twice.
    await t.pricing.upsertRule({ model: 'fake-1', resolution: '1080p', unit: 'second', duration: 0, price: 1_500, audioPrice: 2_000 });
    await t.pricing.upsertRule({ model: 'clip-1', resolution: '720p', unit: 'clip', duration: 5, price: 7_000, audioPrice: null });
    await t.pricing.upsertRule({ model: 'clip-1', resolution: '720p', unit: 'clip', duration: 10, price: 12_000, audioPrice: null });
    await t.pricing.upsertRule({ model: 'clip-1', resolution: '*', unit: 'clip', duration: 0, price: 9_999, audioPrice: null });
    await t.pricing.setRatio('vip', 0.8);
    await t.pricing.setRatio('odd', 1.0 / 3);
  });
  afterAll(() => t.close());

  const quote = (over: Partial<Parameters<ServiceTestContext['pricing']['quote']>[0]>) =>
    t.pricing.quote({ model: 'fake-1', resolution: '720p', seconds: 5, group: 'default', ...over });

  it("holds the family's builtin prices in quota units (1 credit = 100 units), merged in by the catalog at start", async () => {
    expect(FAKE_FAMILY.defaultPrices).toEqual([expect.objectContaining({ model: 'fake-1', resolution: '720p', credits: 10 })]);
    const seeded = await t.dataSource.manager.find(PriceRuleEntity, { where: { model: 'fake-1', resolution: '720p' } });
    expect(seeded).toEqual([expect.objectContaining({ unit: 'second', price: 1_000, audioPrice: null })]);
  });

  it('per second: price x seconds; a group without a ratio pays 1.0', async () => {
    expect((await quote({})).quota).toBe(5_000);
    expect((await quote({ seconds: 8 })).quota).toBe(8_000);
    expect((await quote({ resolution: '1080p', seconds: 4 })).quota).toBe(6_000);
  });

  it('audio tier: its own price where listed, else twice the price; fast motion doubles', async () => {
    expect((await quote({ audio: true })).quota).toBe(10_000);
    expect((await quote({ resolution: '1080p', seconds: 4, audio: true })).quota).toBe(8_000);
    expect((await quote({ fastMotion: true })).quota).toBe(10_000);
    const both = await quote({ audio: true, fastMotion: true });
    expect(both.quota).toBe(20_000);
    expect(both.detail).toBe('fake-1 720p 5s (audio, fast motion): 20000 x group default ratio 1');
  });

  it('the group ratio multiplies and the result is rounded up, never down', async () => {
    expect((await quote({ group: 'vip' })).quota).toBe(4_000);
    // 5,000 / 3 = 1666.67 -> 1667; 7 s: 7,000 / 3 = 2333.33 -> 2334
    expect((await quote({ group: 'odd' })).quota).toBe(1_667);
    expect((await quote({ group: 'odd', seconds: 7 })).quota).toBe(2_334);
    // 1 unit at 0.8 is still 1, not 0
    await t.pricing.upsertRule({ model: 'tiny', resolution: '720p', unit: 'clip', duration: 0, price: 1, audioPrice: null });
    expect((await t.pricing.quote({ model: 'tiny', resolution: '720p', seconds: 5, group: 'vip' })).quota).toBe(1);
  });

  it('per clip: the duration-specific price, else the any-resolution rule; duration does not multiply', async () => {
    expect((await t.pricing.quote({ model: 'clip-1', resolution: '720p', seconds: 5, group: 'default' })).quota).toBe(7_000);
    expect((await t.pricing.quote({ model: 'clip-1', resolution: '720p', seconds: 10, group: 'vip' })).quota).toBe(9_600);
    expect((await t.pricing.quote({ model: 'clip-1', resolution: '480p', seconds: 10, group: 'default' })).quota).toBe(9_999);
    expect((await t.pricing.quote({ model: 'clip-1', resolution: '720p', seconds: 5, group: 'default', fastMotion: true })).quota).toBe(
      14_000,
    );
  });

  it("keeps what the task settles with later: the model's rates, the group's ratio and the ask, as they were at the quote", async () => {
    const quoted = await quote({ group: 'vip', resolution: '1080p', seconds: 8, audio: true });
    expect(quoted.basis).toEqual({
      rules: expect.arrayContaining([
        { resolution: '720p', unit: 'second', duration: 0, price: 1_000, audioPrice: null },
        { resolution: '1080p', unit: 'second', duration: 0, price: 1_500, audioPrice: 2_000 },
      ]),
      ratio: 0.8,
      asked: { resolution: '1080p', seconds: 8, audio: true, fastMotion: false },
    });
    // Settled on a 4 s 720p delivery with the same rates: 4 x 2,000 (the audio tier) x 0.8.
    expect(settle(quoted.quota, quoted.basis, { durationSeconds: 4, width: 1280, height: 720, hasAudio: true })).toMatchObject({
      quota: 6_400,
    });
  });

  it('no rule for the model or resolution is a 400 naming model', async () => {
    await expect(quote({ model: 'nope' })).rejects.toMatchObject({
      message: 'no price for model nope at 720p',
      options: { param: 'model' },
    });
    await expect(quote({ resolution: '4k' })).rejects.toMatchObject({ message: 'no price for model fake-1 at 4k' });
  });
});
