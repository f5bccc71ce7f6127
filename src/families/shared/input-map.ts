/**
 * A hosted platform's route says, in data, how the gateway's request fields become an endpoint's
 * input (`options.input_map`): `{"prompt": "prompt", "first_frame": "image_url",
 * "seconds": {"field": "duration", "as": "string"}}`. One platform protocol serves every model of
 * fal and Replicate, so a model is a catalog entry whose route carries this map; nothing here
 * knows a platform. Pure functions: the schema check (a route option the admin API refuses with
 * the field it names) and the mapping of a settled request onto the endpoint's input.
 */

/** The gateway fields a map may name; `first_frame` is the request's `input_reference`. */
export const GATEWAY_FIELDS = [
  'prompt',
  'first_frame',
  'last_frame',
  'seconds',
  'aspect_ratio',
  'resolution',
  'audio',
  'negative_prompt',
  'seed',
] as const;
export type GatewayField = (typeof GATEWAY_FIELDS)[number];

/** How a number is written: `integer` 5 (the default), `string` "5", `seconds` "5s". */
export const NUMBER_FORMS = ['integer', 'string', 'seconds'] as const;
export type NumberForm = (typeof NUMBER_FORMS)[number];

/** Fields whose values are numbers (they take `as`) and fields whose values are words (they take `values`). */
const NUMBER_FIELDS: readonly GatewayField[] = ['seconds', 'seed'];
const WORD_FIELDS: readonly GatewayField[] = ['aspect_ratio', 'resolution'];

/** An endpoint's input field name: an identifier, as both platforms' schemas name them. */
const ENDPOINT_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_VALUES = 32;

/** Where one gateway field goes. */
export interface InputTarget {
  field: string;
  /** Numbers only. */
  as?: NumberForm;
  /** Words only: the endpoint's spelling of a gateway value (`{"768p": "768P"}`); others go as they are. */
  values?: Readonly<Record<string, string | number | boolean>>;
}

export type InputMap = Partial<Record<GatewayField, InputTarget>>;

/** A request as the gateway settled it: the values to send (images as the text the endpoint takes). */
export type GatewayValues = Partial<{
  prompt: string;
  first_frame: string;
  last_frame: string;
  seconds: number;
  aspect_ratio: string;
  resolution: string;
  audio: boolean;
  negative_prompt: string;
  seed: number;
}>;

/** A problem of an `input_map`, named by its dotted path below the route's options. */
export interface OptionProblem {
  field: string;
  message: string;
}

/** The first problem of an `input_map` option, or null: each gateway field once, each onto its own endpoint field. */
export function checkInputMap(value: unknown): OptionProblem | null {
  const problem = (field: string, message: string): OptionProblem => ({ field, message: `${field} ${message}` });
  if (!isPlainObject(value) || Object.keys(value).length === 0)
    return problem('input_map', 'must be an object naming, for each gateway field the model takes, its input field');
  const taken = new Map<string, string>();
  for (const [key, target] of Object.entries(value)) {
    const at = `input_map.${key}`;
    if (!(GATEWAY_FIELDS as readonly string[]).includes(key)) return problem(at, `is not a gateway field (${GATEWAY_FIELDS.join(', ')})`);
    const gatewayField = key as GatewayField;
    if (typeof target === 'string') {
      if (!ENDPOINT_FIELD.test(target)) return problem(at, 'must be an input field name (letters, digits and _)');
    } else if (isPlainObject(target)) {
      const extra = Object.keys(target).find((name) => !['field', 'as', 'values'].includes(name));
      if (extra) return problem(`${at}.${extra}`, 'is not taken (field, as, values are)');
      if (typeof target.field !== 'string' || !ENDPOINT_FIELD.test(target.field))
        return problem(`${at}.field`, 'must be an input field name (letters, digits and _)');
      if (target.as !== undefined) {
        if (!NUMBER_FIELDS.includes(gatewayField)) return problem(`${at}.as`, `is taken only by ${NUMBER_FIELDS.join(' and ')}`);
        if (!(NUMBER_FORMS as readonly unknown[]).includes(target.as))
          return problem(`${at}.as`, `must be one of ${NUMBER_FORMS.join(', ')}`);
      }
      if (target.values !== undefined) {
        if (!WORD_FIELDS.includes(gatewayField)) return problem(`${at}.values`, `is taken only by ${WORD_FIELDS.join(' and ')}`);
        const values = target.values;
        if (!isPlainObject(values) || Object.keys(values).length === 0 || Object.keys(values).length > MAX_VALUES)
          return problem(`${at}.values`, `must be an object of 1 to ${MAX_VALUES} gateway values and what the endpoint calls them`);
        const bad = Object.entries(values).find(([, spelled]) => !['string', 'number', 'boolean'].includes(typeof spelled));
        if (bad) return problem(`${at}.values.${bad[0]}`, 'must be a string, a number or a boolean');
      }
    } else {
      return problem(at, 'must be an input field name, or {"field": ..., "as": ...}');
    }
    const field = typeof target === 'string' ? target : (target.field as string);
    const before = taken.get(field);
    if (before) return problem(at, `writes ${field}, which ${before} writes already`);
    taken.set(field, key);
  }
  return null;
}

/** A checked `input_map` as targets (a bare name is `{field}`); an unusable one is an empty map. */
export function inputMapOf(value: unknown): InputMap {
  if (checkInputMap(value) !== null) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, target]) => [
      key,
      typeof target === 'string' ? { field: target } : (target as InputTarget),
    ]),
  );
}

/** The first of `sent` the map does not name (a field the model does not take), or null. */
export function firstUnmapped(map: InputMap, sent: readonly GatewayField[]): GatewayField | null {
  return sent.find((field) => map[field] === undefined) ?? null;
}

/** The endpoint's input for a settled request: each value the map names, written as its target says. */
export function mapInput(map: InputMap, values: GatewayValues): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of GATEWAY_FIELDS) {
    const target = map[field];
    const value = values[field];
    if (target === undefined || value === undefined) continue;
    input[target.field] = written(value, target);
  }
  return input;
}

function written(value: string | number | boolean, target: InputTarget): unknown {
  if (typeof value === 'number') {
    if (target.as === 'string') return String(value);
    if (target.as === 'seconds') return `${value}s`;
    return value;
  }
  if (typeof value === 'string' && target.values && Object.hasOwn(target.values, value)) return target.values[value];
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
