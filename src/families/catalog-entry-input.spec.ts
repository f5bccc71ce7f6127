import { sameEntry } from '../catalog/catalog-entry-diff';
import { CatalogEntryDto } from '../catalog/catalog-entry.dto';
import { MODEL_MODES } from '../catalog/catalog-entry';
import { RequestValidationPipe } from '../common/http/validation';
import { entryFromInput, inputOf } from './catalog-entry-input';
import type { FamilyDefinition } from './family';
import { FAMILIES } from './family-registry';

const builtins = FAMILIES.flatMap((family) => family.builtinEntries);
const ids = new Set(builtins.map((entry) => entry.id));

describe('entryFromInput', () => {
  it('every builtin entry is one the admin API takes as it is (an export moves between databases)', async () => {
    for (const entry of builtins) {
      const input = (await new RequestValidationPipe().transform(JSON.parse(JSON.stringify(inputOf(entry))), {
        type: 'body',
        metatype: CatalogEntryDto,
      })) as CatalogEntryDto;
      expect(entryFromInput(input, FAMILIES, (id) => ids.has(id))).toEqual(entry);
    }
  });

  it("refuses routes whose JSON is over the smallest database's column (MariaDB TEXT): a 400 naming routes", () => {
    const input = inputOf(builtins[0]);
    // Each upstream id within its 256 characters, but in 4-byte characters, on every platform and mode.
    const upstream = Object.fromEntries(MODEL_MODES.map((mode) => [mode, '\u{1F3A5}'.repeat(256)]));
    const platforms = Array.from({ length: 12 }, (_, index) => ({ platform: `p${index}` }) as unknown as FamilyDefinition);
    const routes = platforms.map(({ platform }) => ({ platform, upstream_model: upstream }));
    expect(() => entryFromInput({ ...input, routes }, platforms, () => true)).toThrow(
      expect.objectContaining({ message: 'routes must be at most 60000 bytes as JSON', options: { param: 'routes' } }),
    );
    expect(() => entryFromInput({ ...input, routes: routes.slice(0, 2) }, platforms, () => true)).not.toThrow();
  });
});

describe('prices that cannot mislead', () => {
  const input = (overrides: object): CatalogEntryDto => ({
    id: 'priced',
    modes: ['text-to-video'],
    durations: [5],
    resolutions: ['720p', '1080p'],
    aspect_ratios: ['16:9'],
    audio: 'none',
    prices: [{ resolution: '720p', unit: 'second', price: 700 }],
    routes: [{ platform: 'kling', upstream_model: 'kling-v3' }],
    ...overrides,
  });
  const refusal = (body: CatalogEntryDto) => {
    try {
      entryFromInput(body, FAMILIES, () => false);
      return null;
    } catch (error) {
      return error as { message: string; options: { param?: string; fields?: { param: string; message: string }[] } };
    }
  };

  it('a resolution the entry lists without a price is a 400 naming prices; a * price covers every one', () => {
    expect(refusal(input({}))).toMatchObject({
      message: 'prices must price every resolution the model offers: 1080p has no price (or add a * row)',
      options: { param: 'prices' },
    });
    expect(refusal(input({ prices: [{ resolution: '*', unit: 'second', price: 700 }] }))).toBeNull();
    expect(refusal(input({ resolutions: [] }))).toBeNull();
  });

  it('names every bad field in one 400, the first as param', () => {
    const error = refusal(input({ default_duration: 7, replacement: 'nowhere', released_at: '2026-02-31x' }));
    expect(error?.options.param).toBe('default_duration');
    expect(error?.options.fields?.map((problem) => problem.param)).toEqual(['default_duration', 'prices', 'replacement', 'released_at']);
    expect(error?.message).toContain('default_duration must be one of durations (5); prices must price every resolution');
  });
});

describe("a route's cost (what the provider charges the operator, in USD)", () => {
  const pipe = async (body: object) =>
    (await new RequestValidationPipe().transform(body, { type: 'body', metatype: CatalogEntryDto })) as CatalogEntryDto;
  const base = {
    id: 'costed',
    modes: ['text-to-video'],
    durations: [5, 10],
    resolutions: ['720p', '1080p'],
    aspect_ratios: ['16:9'],
    audio: 'optional',
    prices: [
      { resolution: '720p', unit: 'second', price: 700 },
      { resolution: '1080p', unit: 'second', price: 900 },
    ],
  };
  const withCost = (cost: object[]) => ({ ...base, routes: [{ platform: 'kling', upstream_model: 'kling-v3', cost }] });
  const refusal = async (cost: object[]) => {
    try {
      entryFromInput(await pipe(withCost(cost)), FAMILIES, () => false);
      return null;
    } catch (error) {
      const { message, options } = error as { message: string; options: { param?: string } };
      return { param: options.param, message };
    }
  };

  it('is stored with its route, resolutions as the catalog names them, and shown again as it was sent', async () => {
    const cost = [
      { resolution: ' 720P ', unit: 'second', usd: 0.05, audio_usd: 0.08 },
      { resolution: '*', unit: 'clip', duration: 10, usd: 1.2 },
    ];
    const entry = entryFromInput(await pipe(withCost(cost)), FAMILIES, () => false);
    expect(entry.routes[0].cost).toEqual([
      { resolution: '720p', unit: 'second', usd: 0.05, audio_usd: 0.08 },
      { resolution: '*', unit: 'clip', duration: 10, usd: 1.2 },
    ]);
    expect(inputOf(entry).routes[0].cost).toEqual(entry.routes[0].cost);
    // A route without one keeps none (an empty list is none).
    expect(entryFromInput(await pipe(withCost([])), FAMILIES, () => false).routes[0]).not.toHaveProperty('cost');
  });

  it.each([
    [
      'a negative usd',
      [
        { resolution: '720p', unit: 'second', usd: 0.05 },
        { resolution: '1080p', unit: 'second', usd: -1 },
      ],
      'routes[0].cost[1].usd',
    ],
    ['a usd that is not a number', [{ resolution: '720p', unit: 'second', usd: '0.05' }], 'routes[0].cost[0].usd'],
    ['a negative audio_usd', [{ resolution: '720p', unit: 'second', usd: 0.05, audio_usd: -0.1 }], 'routes[0].cost[0].audio_usd'],
    ['a unit that is neither second nor clip', [{ resolution: '720p', unit: 'minute', usd: 1 }], 'routes[0].cost[0].unit'],
    ['a row without usd', [{ resolution: '720p', unit: 'second' }], 'routes[0].cost[0].usd'],
  ])('refuses %s: a 400 naming the field', async (_name, cost, param) => {
    await expect(pipe(withCost(cost))).rejects.toMatchObject({ options: { param } });
  });

  it("refuses a resolution the model does not have, and a row repeated: a 400 naming the row's field", async () => {
    expect(
      await refusal([
        { resolution: '720p', unit: 'second', usd: 0.05 },
        { resolution: '4k', unit: 'second', usd: 0.5 },
      ]),
    ).toEqual({
      param: 'routes[0].cost[1].resolution',
      message: 'routes[0].cost[1].resolution must be * or one of resolutions (720p, 1080p)',
    });
    expect(
      await refusal([
        { resolution: '1080p', unit: 'clip', duration: 5, usd: 0.5 },
        { resolution: '1080P', unit: 'clip', duration: 5, usd: 0.6 },
      ]),
    ).toEqual({ param: 'routes[0].cost[1]', message: 'routes[0].cost[1] repeats the cost of 1080p at 5 s' });
    expect(await refusal([{ resolution: '*', unit: 'second', usd: 0 }])).toBeNull();
  });

  it('names the entry of an import file', () => {
    const input = { ...withCost([{ resolution: '8k', unit: 'second', usd: 1 }]) } as unknown as CatalogEntryDto;
    expect(() =>
      entryFromInput(
        input,
        FAMILIES,
        () => false,
        (field) => `models[3].${field}`,
      ),
    ).toThrow(expect.objectContaining({ options: { param: 'models[3].routes[0].cost[0].resolution' } }));
  });

  it('a change of cost alone is a change of the entry (an import applies it)', async () => {
    const before = entryFromInput(await pipe(withCost([{ resolution: '720p', unit: 'second', usd: 0.05 }])), FAMILIES, () => false);
    const after = entryFromInput(await pipe(withCost([{ resolution: '720p', unit: 'second', usd: 0.06 }])), FAMILIES, () => false);
    expect(sameEntry(before, after)).toBe(false);
    expect(sameEntry(before, { ...before })).toBe(true);
  });
});
