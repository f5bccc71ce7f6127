import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_INPUT } from '../catalog/catalog-entry.spec-support';
import { BUILTIN_CATALOG_PATH, builtinCatalogFile } from '../families/builtin-catalog-file';
import { catalogFileOf } from '../families/catalog-file';
import { FAMILIES } from '../families/family-registry';
import { feedEntries, FeedRefused } from './feed-document';

const committed = readFileSync(join(__dirname, '..', '..', BUILTIN_CATALOG_PATH));
/** A model the release does not ship, on Kling, at 300 a second. */
const MODEL = {
  ...ENTRY_INPUT,
  id: 'feed-video-1',
  prices: [{ resolution: '720p', unit: 'second', price: 300 }],
  routes: [{ platform: 'kling', upstream_model: 'kling-v2-6' }],
};
const doc = (models: object[], extra: object = {}) => Buffer.from(JSON.stringify({ version: 1, models, ...extra }));
const refusal = (document: Buffer) =>
  feedEntries(document, FAMILIES, []).then(
    () => null,
    (error: Error) => error,
  );

describe('feedEntries: a feed document checked as an admin import is', () => {
  it("takes the repository's builtin catalog (what an operator may host as their own feed), every entry", async () => {
    const entries = await feedEntries(committed, FAMILIES, []);
    expect(entries.map((entry) => entry.id)).toEqual(builtinCatalogFile(FAMILIES).models.map((model) => model.id));
    expect(catalogFileOf(entries)).toEqual(JSON.parse(committed.toString('utf8')));
  });

  it('takes a new model, with the defaults an admin POST gives it', async () => {
    const [entry] = await feedEntries(doc([MODEL]), FAMILIES, []);
    expect(entry).toMatchObject({
      id: 'feed-video-1',
      defaultDuration: 5,
      status: 'active',
      aliases: [],
      prices: [{ price: 300, audioPrice: null }],
    });
  });

  it.each([
    ['not JSON', Buffer.from('<html>502 Bad Gateway</html>'), 'the document is not JSON'],
    ['a JSON array', Buffer.from('[]'), 'the document is not a JSON object'],
    ['another version', doc([MODEL], { version: 2 }), 'version must be 1 (the document says 2)'],
    ['a field no entry has', doc([{ ...MODEL, turbo: true }]), 'models[0].turbo: property turbo should not exist'],
    [
      'one bad price among good entries',
      doc([
        { ...MODEL, id: 'ok' },
        { ...MODEL, prices: [{ resolution: '720p', unit: 'second', price: -1 }] },
      ]),
      /^models\[1\]\.prices\[0\]\.price /,
    ],
    [
      'a price for a resolution the model lacks',
      doc([{ ...MODEL, prices: [{ resolution: '4k', unit: 'second', price: 1 }] }]),
      'models[0].prices[0].resolution must be * or one of resolutions (720p); models[0].prices must price every resolution the model offers: 720p has no price (or add a * row)',
    ],
    [
      'a platform the gateway does not speak',
      doc([{ ...MODEL, routes: [{ platform: 'nowhere', upstream_model: 'x' }] }]),
      /^models\[0\]\.routes\[0\]\.platform must be one of the following values: alpha, /,
    ],
    [
      'a route option its family refuses',
      doc([{ ...MODEL, routes: [{ platform: 'kling', upstream_model: 'x', options: { turbo: true } }] }]),
      /^models\[0\]\.routes\[0\]\.options\.turbo is not a Kling route option/,
    ],
    ['an id twice', doc([MODEL, MODEL]), 'models: each id may appear once'],
    [
      'an alias another entry of the document has as its id',
      doc([
        { ...MODEL, id: 'a' },
        { ...MODEL, id: 'b', aliases: ['a'] },
      ]),
      "models[0].id: a is another model's alias",
    ],
    [
      'a replacement in neither the document nor the catalog',
      doc([{ ...MODEL, status: 'retired', replacement: 'nowhere' }]),
      'models[0].replacement must be another model of the catalog',
    ],
  ])('refuses %s, naming the problem', async (_case, document, message) => {
    const error = await refusal(document);
    expect(error).toBeInstanceOf(FeedRefused);
    expect(error!.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });
});
