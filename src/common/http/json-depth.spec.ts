import { jsonNestsDeeperThan, rejectDeepJson } from './json-depth';

const deeper = (json: string, max: number) => jsonNestsDeeperThan(Buffer.from(json), max);

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays alike', () => {
    expect(deeper('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(deeper('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(deeper('[[[]],[[]]]', 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(deeper(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\"', c: '\\\\' }), 1)).toBe(false);
    expect(deeper(JSON.stringify({ a: 'x\\', b: [[1]] }), 2)).toBe(true);
  });

  it('leaves malformed JSON (an unterminated string) to the parser', () => {
    expect(deeper('{"a":"[[[[', 1)).toBe(false);
  });
});

describe('rejectDeepJson', () => {
  const verify = rejectDeepJson(2);

  it('throws a 400 the error filter maps, naming the limit', () => {
    expect(() => verify({} as never, {}, Buffer.from('[[[1]]]'), 'utf-8')).toThrow(
      expect.objectContaining({ status: 400, message: 'request body is nested too deeply (more than 2 levels)' }),
    );
    expect(() => verify({} as never, {}, Buffer.from('[[1]]'), 'utf-8')).not.toThrow();
  });

  it('reads UTF-16 as text, where a bracket byte can be half of another character', () => {
    expect(() => verify({} as never, {}, Buffer.from('["\u5b5b\u5b5b"]', 'utf16le'), 'utf-16le')).not.toThrow();
    expect(() => verify({} as never, {}, Buffer.from('[[[1]]]', 'utf16le'), 'utf-16le')).toThrow(expect.objectContaining({ status: 400 }));
  });
});
