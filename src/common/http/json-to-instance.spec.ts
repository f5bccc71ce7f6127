import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { plainToInstance, Transform, Type as TypeOf } from 'class-transformer';
import { FAMILIES } from '../../families/family-registry';
import { SubmitCommonFieldsDto } from '../../tasks/submit-common-fields.dto';
import { jsonToInstance } from './json-to-instance';

/** Every schema a request body is made into: the shared submit fields and each family's. */
const SCHEMAS: Array<{ name: string; schema: Type<object> }> = [
  { name: 'SubmitCommonFieldsDto', schema: SubmitCommonFieldsDto },
  ...FAMILIES.map((family) => ({ name: family.platform, schema: family.request.schema })),
];

/** JSON texts of every shape a client may send, keys that shadow Object.prototype's and the prototype's own among them. */
const VALUES = [
  'null',
  '""',
  '"X"',
  '0',
  '5.5',
  'true',
  '[]',
  '[1, "a", null]',
  '[{"url": "http://example.com/a.png", "extra": 1}]',
  '[[{"a": 1}]]',
  '{}',
  '{"seed": 1, "negative_prompt": "blur", "unknown": true}',
  '{"toString": "x", "valueOf": 1, "hasOwnProperty": {}}',
  '{"constructor": "x"}',
  '{"__proto__": {"polluted": true}, "a": 1}',
  '{"nested": {"deeper": [{"constructor": {}}]}}',
];

/** The schema's family's documented examples (every family's, for the shared fields), each field of each set to each value. */
function bodiesOf(schema: Type<object>): string[] {
  const family = FAMILIES.find((each) => each.request.schema === schema);
  const examples = (family ? [family] : FAMILIES).flatMap((each) =>
    Object.values(each.request.examples).flatMap((byName) => Object.values(byName ?? {}).map((example) => example.value)),
  );
  const texts: string[] = [];
  for (const example of examples) {
    const text = JSON.stringify(example);
    texts.push(text);
    for (const field of [...Object.keys(example), 'metadata', 'images', 'not_a_field', 'toString', 'constructor', '__proto__']) {
      // A key sent twice: JSON.parse keeps the last, so this one replaces the example's.
      for (const value of VALUES) texts.push(`${text.slice(0, -1)}, ${JSON.stringify(field)}: ${value}}`);
    }
  }
  return texts;
}

type Outcome = { instance: object } | { threw: string };
const outcome = (make: () => object): Outcome => {
  try {
    return { instance: make() };
  } catch (error) {
    return { threw: String(error) };
  }
};

describe("jsonToInstance: class-transformer's plainToInstance, for JSON bodies", () => {
  it.each(SCHEMAS)('makes the same instance of $name as plainToInstance from every body', ({ schema }) => {
    const texts = bodiesOf(schema);
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      const fast = outcome(() => jsonToInstance(schema, JSON.parse(text) as object));
      const slow = outcome(() => plainToInstance(schema, JSON.parse(text) as object));
      // Class and fields alike, nested instances included.
      expect({ text, fast }).toStrictEqual({ text, fast: slow });
    }
  });

  it('leaves what it does not replicate to plainToInstance (a Set, a Date, a class of its own)', () => {
    class Inner {
      value?: number;
    }
    class Outer {
      @TypeOf(() => Date)
      at?: Date;
      @TypeOf(() => Inner)
      inner?: Inner;
      @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
      quality?: string;
    }
    const body = { at: '2026-01-02T03:04:05Z', inner: { value: 1 }, quality: '720P', extra: [1] };
    const made = jsonToInstance(Outer, { ...body, inner: { ...body.inner } });
    expect(made).toStrictEqual(plainToInstance(Outer, body));
    expect(made.at).toBeInstanceOf(Date);
    expect(made.inner).toBeInstanceOf(Inner);
    expect(made.quality).toBe('720p');
  });
});
