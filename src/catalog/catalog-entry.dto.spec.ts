import { AppError } from '../common/errors/app-error';
import { RequestValidationPipe } from '../common/http/validation';
import { CatalogEntryDto, CatalogFileDto, MAX_SUNSET_AT } from './catalog-entry.dto';
import { ENTRY_INPUT } from './catalog-entry.spec-support';

const ENTRY = ENTRY_INPUT;

/** The 400 the admin API answers for `body`, as {param, message}; null when it passes. */
async function refusal(metatype: typeof CatalogEntryDto | typeof CatalogFileDto, body: object) {
  try {
    await new RequestValidationPipe().transform(body, { type: 'body', metatype });
    return null;
  } catch (error) {
    return { param: (error as AppError).options.param, message: (error as AppError).message };
  }
}

describe('CatalogEntryDto: every field within what every database stores and the gateway prints', () => {
  it('takes an entry at every bound', async () => {
    expect(
      await refusal(CatalogEntryDto, {
        ...ENTRY,
        sunset_at: MAX_SUNSET_AT,
        resolutions: ['x'.repeat(16)],
        aspect_ratios: ['y'.repeat(16)],
        routes: [{ platform: 'fal', upstream_model: { 'text-to-video': 'z'.repeat(256) } }],
      }),
    ).toBeNull();
  });

  it.each([
    ['sunset_at 1e15', { sunset_at: 1e15 }, 'sunset_at'],
    ['sunset_at 2^63', { sunset_at: 2 ** 63 }, 'sunset_at'],
    ['sunset_at 1e308', { sunset_at: 1e308 }, 'sunset_at'],
    [
      'an upstream_model by mode of 70 kB',
      { routes: [{ platform: 'fal', upstream_model: { 'text-to-video': 'a'.repeat(70_000) } }] },
      'routes[0].upstream_model',
    ],
    ['32 resolutions of 3 kB', { resolutions: Array.from({ length: 32 }, (_, i) => `${i}`.padEnd(3000, 'p')) }, 'resolutions'],
    ['an aspect ratio of 17 characters', { aspect_ratios: ['1'.repeat(17)] }, 'aspect_ratios'],
    ['a list of 601 seconds', { durations: Array.from({ length: 601 }, () => 5) }, 'durations'],
    [
      'route options of 20 kB',
      { routes: [{ platform: 'fal', upstream_model: 'x', options: { input_map: { prompt: 'p'.repeat(20_000) } } }] },
      'routes[0].options',
    ],
    ['a replacement of 65 characters', { replacement: 'r'.repeat(65) }, 'replacement'],
    [
      "a route cost's usd below 0",
      {
        routes: [
          {
            platform: 'fal',
            upstream_model: 'x',
            cost: [
              { resolution: '720p', unit: 'second', usd: 0.05 },
              { resolution: '720p', unit: 'clip', usd: -0.5 },
            ],
          },
        ],
      },
      'routes[0].cost[1].usd',
    ],
    [
      "a route cost's usd of NaN",
      { routes: [{ platform: 'fal', upstream_model: 'x', cost: [{ resolution: '720p', unit: 'second', usd: NaN }] }] },
      'routes[0].cost[0].usd',
    ],
    [
      "a route cost's unit of a minute",
      {
        routes: [
          { platform: 'fal', upstream_model: 'x' },
          { platform: 'kling', upstream_model: 'k', cost: [{ resolution: '*', unit: 'minute', usd: 1 }] },
        ],
      },
      'routes[1].cost[0].unit',
    ],
    ['a route cost that is not a list', { routes: [{ platform: 'fal', upstream_model: 'x', cost: { usd: 1 } }] }, 'routes[0].cost'],
    ['a route cost of null', { routes: [{ platform: 'fal', upstream_model: 'x', cost: null }] }, 'routes[0].cost'],
  ])('refuses %s: a 400 naming the field', async (_name, over, param) => {
    expect(await refusal(CatalogEntryDto, { ...ENTRY, ...over })).toMatchObject({ param });
  });

  it('names the entry of an import file', async () => {
    const refused = await refusal(CatalogFileDto, { version: 1, models: [ENTRY, { ...ENTRY, id: 'm-2', sunset_at: 2 ** 63 }] });
    expect(refused).toMatchObject({ param: 'models[1].sunset_at', message: expect.stringContaining('9999-12-31T23:59:59Z') });
  });
});
