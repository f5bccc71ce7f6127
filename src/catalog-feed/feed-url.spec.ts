import { feedFilePath, shownFeedUrl, signatureUrlOf } from './feed-url';

describe('the feed URL', () => {
  it('is shown without credentials or query values', () => {
    expect(shownFeedUrl('https://user:secret@feeds.example.com/v1/catalog.json?token=abc')).toBe(
      'https://feeds.example.com/v1/catalog.json?…',
    );
    expect(shownFeedUrl('http://127.0.0.1:8080/catalog.json')).toBe('http://127.0.0.1:8080/catalog.json');
    expect(shownFeedUrl('file:catalog/builtin-catalog.json')).toBe('file:catalog/builtin-catalog.json');
  });

  it('has its signature beside it, `.sig` after the path', () => {
    expect(signatureUrlOf('https://feeds.example.com/catalog.json')).toBe('https://feeds.example.com/catalog.json.sig');
    expect(signatureUrlOf('https://feeds.example.com/catalog.json?token=abc')).toBe('https://feeds.example.com/catalog.json.sig?token=abc');
    expect(signatureUrlOf('file:/etc/gateway/catalog.json')).toBe('file:/etc/gateway/catalog.json.sig');
  });

  it('names a file as file:<path> or file:///<path>', () => {
    expect(feedFilePath('file:catalog/builtin-catalog.json')).toBe('catalog/builtin-catalog.json');
    expect(feedFilePath('file:///etc/gateway/catalog.json')).toBe('/etc/gateway/catalog.json');
  });
});
