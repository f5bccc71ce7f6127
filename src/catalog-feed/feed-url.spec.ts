import { feedFilePath, shownFeedUrl, signatureUrlOf } from './feed-url';

describe('the feed URL', () => {
  it.each([
    ['https://user:secret@feeds.example.com/v1/catalog.json?token=abc', 'https://feeds.example.com/v1/catalog.json?…'],
    ['http://127.0.0.1:8080/catalog.json', 'http://127.0.0.1:8080/catalog.json'],
    ['file:catalog/builtin-catalog.json', 'file:catalog/builtin-catalog.json'],
  ])('%s is shown as %s: no credentials, no query values', (url, shown) => expect(shownFeedUrl(url)).toBe(shown));

  it.each([
    ['https://feeds.example.com/catalog.json', 'https://feeds.example.com/catalog.json.sig'],
    ['https://feeds.example.com/catalog.json?token=abc', 'https://feeds.example.com/catalog.json.sig?token=abc'],
    ['file:/etc/gateway/catalog.json', 'file:/etc/gateway/catalog.json.sig'],
  ])('%s has its signature at %s', (url, signature) => expect(signatureUrlOf(url)).toBe(signature));

  it.each([
    ['file:catalog/builtin-catalog.json', 'catalog/builtin-catalog.json'],
    ['file:///etc/gateway/catalog.json', '/etc/gateway/catalog.json'],
  ])('%s names the file %s', (url, path) => expect(feedFilePath(url)).toBe(path));
});
