import { findUnstorableText, unstorableIn } from './storable-text';

describe('unstorableIn', () => {
  it('finds a NUL and an unpaired surrogate of either half', () => {
    expect(unstorableIn('a\u0000b')).toBe('a NUL character (U+0000)');
    expect(unstorableIn('a\uD83Eb')).toBe('an unpaired UTF-16 surrogate');
    expect(unstorableIn('\uDD8A')).toBe('an unpaired UTF-16 surrogate');
  });

  it('takes any other text: emoji (paired surrogates), other control characters, noncharacters', () => {
    for (const text of ['', 'a cat', '\u{1F98A}', 'tab\tnew\nline\u0001', '\uFFFE\uFFFF', '灯塔 🌅']) expect(unstorableIn(text)).toBeNull();
  });
});

describe('findUnstorableText', () => {
  it('names the first field by its dotted path, arrays by index', () => {
    expect(findUnstorableText({ prompt: 'a\u0000b' })).toEqual({
      field: 'prompt',
      message: 'prompt must not contain a NUL character (U+0000)',
    });
    expect(findUnstorableText({ metadata: { input: { media: [{ url: 'ok' }, { url: '\uD83E' }] } } })).toEqual({
      field: 'metadata.input.media[1].url',
      message: 'metadata.input.media[1].url must not contain an unpaired UTF-16 surrogate',
    });
    expect(findUnstorableText(['ok', '\u0000'])).toEqual({ field: '[1]', message: '[1] must not contain a NUL character (U+0000)' });
  });

  it('names the object holding a field name that cannot be stored', () => {
    expect(findUnstorableText({ metadata: { 'a\u0000': 1 } })).toEqual({
      field: 'metadata',
      message: 'field names must not contain a NUL character (U+0000)',
    });
    expect(findUnstorableText({ '\u0000': 1 })).toEqual({
      field: undefined,
      message: 'field names must not contain a NUL character (U+0000)',
    });
  });

  it('starts from a given field (a form field holding JSON)', () => {
    expect(findUnstorableText({ seed: 'x\u0000' }, 'metadata')).toMatchObject({ field: 'metadata.seed' });
  });

  it('takes numbers, booleans, null and storable text; walks no Buffer or class instance', () => {
    expect(findUnstorableText({ a: 1, b: true, c: null, d: ['x', { e: 'y' }] })).toBeNull();
    expect(findUnstorableText(Buffer.from('a\u0000b'))).toBeNull();
    expect(findUnstorableText(undefined)).toBeNull();
    expect(findUnstorableText(Object.assign(Object.create(null), { f: 'a\u0000' }))).toMatchObject({ field: 'f' });
  });
});
