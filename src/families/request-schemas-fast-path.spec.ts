import 'reflect-metadata';
import { Type, ValidationPipe } from '@nestjs/common';
import { instanceIfValid } from '../common/http/body-rules-fast-path';
import { SubmitCommonFieldsDto } from '../tasks/submit-common-fields.dto';
import { FAMILIES } from './family-registry';

/** The pipe validBody ran every body through before the fast path (its options; the exception factory does not decide pass or fail). */
const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: false, transform: true });

/** Values of every JSON type, and the shapes the schemas look for (ids, sizes, URLs, data URIs, references). */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  '  ',
  'x',
  'alpha/v6',
  '720P',
  '1080p',
  '1280x720',
  '16:9',
  '5',
  'http://example.com/a.png',
  'data:image/png;base64,iVBORw0KGgo=',
  0,
  1,
  -1,
  5,
  5.5,
  2147483648,
  true,
  false,
  [],
  ['a'],
  ['http://example.com/a.png', 'http://example.com/b.png'],
  [1],
  [null],
  [{}],
  [{ url: 'http://example.com/a.png', extra: 1 }],
  {},
  { extra: 1 },
  { image_url: 'http://example.com/a.png' },
  { seed: 1, negative_prompt: 'blur', unknown: true },
];

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** Each example, each of its fields (and one level into an object field) set to each value, and an unknown field added. */
function variants(examples: Record<string, unknown>[]): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  for (const example of examples) {
    bodies.push(example, { ...example, not_a_field: { deep: [1] } });
    for (const [field, sent] of Object.entries(example)) {
      for (const value of VALUES) bodies.push({ ...example, [field]: value });
      if (sent && typeof sent === 'object' && !Array.isArray(sent)) {
        for (const inner of Object.keys(sent))
          for (const value of VALUES) bodies.push({ ...example, [field]: { ...sent, [inner]: value } });
      }
    }
    for (const field of ['metadata', 'seconds', 'duration', 'images', 'image', 'input_reference', 'size', 'callback_url'])
      for (const value of VALUES) bodies.push({ ...example, [field]: value });
  }
  return bodies;
}

async function byThePipe(schema: Type<object>, body: unknown): Promise<{ instance: object } | { refused: unknown }> {
  try {
    return { instance: (await pipe.transform(body, { type: 'body', metatype: schema })) as object };
  } catch (error) {
    return { refused: error };
  }
}

const SCHEMAS = [
  { name: 'SubmitCommonFieldsDto', schema: SubmitCommonFieldsDto as Type<object>, family: undefined },
  ...FAMILIES.map((family) => ({ name: family.platform, schema: family.request.schema, family })),
];

describe("validBody's fast path: the same instance as the pipe for every body the pipe takes, and no answer for any it refuses", () => {
  it.each(SCHEMAS)('$name', async ({ schema, family }) => {
    const examples = FAMILIES.filter((each) => !family || each === family).flatMap((each) =>
      Object.values(each.request.examples).flatMap((byName) => Object.values(byName ?? {}).map((example) => example.value)),
    );
    expect(examples.length).toBeGreaterThan(0);
    let accepted = 0;
    for (const body of variants(examples)) {
      const fast = instanceIfValid(schema, clone(body));
      const slow = await byThePipe(schema, clone(body));
      if ('instance' in slow) {
        accepted++;
        // Class and fields alike, nested instances included.
        expect({ body, instance: fast }).toStrictEqual({ body, instance: slow.instance });
      } else {
        expect({ body, instance: fast }).toEqual({ body, instance: undefined });
      }
    }
    expect(accepted).toBeGreaterThan(examples.length);
  });

  it('leaves a refused body as it was, so that the pipe sees what the client sent', () => {
    const body = { model: 'alpha/v6', prompt: 'x', duration: 'five', metadata: { seed: 1, unknown: true }, extra: 1 };
    const schema = FAMILIES.find((each) => each.platform === 'alpha')!.request.schema;
    expect(instanceIfValid(schema, body)).toBeUndefined();
    expect(body).toEqual({ model: 'alpha/v6', prompt: 'x', duration: 'five', metadata: { seed: 1, unknown: true }, extra: 1 });
  });

  it('gives no answer to what is not an object', () => {
    for (const body of [null, undefined, 'x', 1, [], Buffer.from('{}')])
      expect(instanceIfValid(SubmitCommonFieldsDto, body)).toBeUndefined();
  });
});
