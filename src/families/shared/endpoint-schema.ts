/**
 * A hosted endpoint's input schema as its platform publishes it (fal: the endpoint's OpenAPI
 * document; Replicate: the model version's `openapi_schema`), and the `input_map` proposed from it:
 * each gateway field matched to the property that takes it. Pure functions; the adapters fetch.
 */
import type { EndpointInputSchema, SchemaProperty } from '../../upstream/endpoint-input-schema';
import type { GatewayField, InputMap, InputTarget, NumberForm } from './input-map';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const KEPT: readonly (keyof SchemaProperty)[] = ['type', 'enum', 'default', 'description', 'title', 'format', 'minimum', 'maximum'];

/** `#/components/schemas/Name` in `document`, or undefined. */
function resolveRef(document: Json, ref: unknown): Json | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) node = isObject(node) ? node[part] : undefined;
  return isObject(node) ? node : undefined;
}

/** A property with its `$ref`/`allOf`/`anyOf` enums folded in (Replicate writes enums as `allOf: [{$ref}]`). */
function propertyOf(document: Json, raw: Json): SchemaProperty {
  const parts = [
    raw,
    ...[raw.$ref, ...(Array.isArray(raw.allOf) ? raw.allOf : []), ...(Array.isArray(raw.anyOf) ? raw.anyOf : [])]
      .map((part) => (isObject(part) ? (resolveRef(document, part.$ref) ?? part) : resolveRef(document, part)))
      .filter(isObject),
  ];
  const property: SchemaProperty = {};
  for (const part of parts)
    for (const key of KEPT)
      if (part[key] !== undefined && property[key] === undefined) (property as Record<string, unknown>)[key] = part[key];
  // `anyOf: [{type: string}, {type: null}]`: the first type that is not null.
  if (property.type === 'null' || property.type === undefined) {
    const typed = parts.find((part) => typeof part.type === 'string' && part.type !== 'null');
    property.type = typed ? (typed.type as string) : property.type;
  }
  return property;
}

/** The input schema of an object schema node (`properties`, `required`). */
function inputOf(document: Json, node: Json | undefined): EndpointInputSchema | null {
  if (!node || !isObject(node.properties)) return null;
  const ordered = Object.entries(node.properties).filter((entry): entry is [string, Json] => isObject(entry[1]));
  // fal orders its properties with `x-fal-order-properties`; otherwise the document's order.
  const order = Array.isArray(node['x-fal-order-properties']) ? (node['x-fal-order-properties'] as string[]) : [];
  ordered.sort(([a], [b]) => rank(order, a) - rank(order, b));
  return {
    properties: Object.fromEntries(ordered.map(([name, raw]) => [name, propertyOf(document, raw)])),
    required: Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : [],
  };
}

const rank = (order: readonly string[], name: string) => (order.includes(name) ? order.indexOf(name) : order.length);

/**
 * fal's OpenAPI document of one endpoint (`openapi.json?endpoint_id=<id>`): the body of `POST /<id>`,
 * else the one component schema named `...Input`. Null when it holds neither.
 */
export function falInputSchema(document: unknown, endpointId: string): EndpointInputSchema | null {
  if (!isObject(document)) return null;
  const paths = isObject(document.paths) ? document.paths : {};
  const post = [paths[`/${endpointId}`], ...Object.values(paths)].map((path) => (isObject(path) ? path.post : undefined)).find(isObject);
  const body = isObject(post?.requestBody) ? post.requestBody : undefined;
  const content = isObject(body?.content) ? body.content['application/json'] : undefined;
  const bodySchema = isObject(content) && isObject(content.schema) ? content.schema : undefined;
  const fromPath = bodySchema ? (resolveRef(document, bodySchema.$ref) ?? bodySchema) : undefined;
  if (fromPath) return inputOf(document, fromPath);
  const schemas = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const inputs = Object.entries(schemas).filter(([name, node]) => name.endsWith('Input') && isObject(node));
  return inputs.length === 1 ? inputOf(document, inputs[0][1] as Json) : null;
}

/** Replicate's model (`GET /v1/models/{owner}/{name}`): its latest version's `Input` schema, or null. */
export function replicateInputSchema(model: unknown): EndpointInputSchema | null {
  const version = isObject(model) && isObject(model.latest_version) ? model.latest_version : undefined;
  const document = isObject(version?.openapi_schema) ? version.openapi_schema : undefined;
  if (!document) return null;
  const schemas = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  return inputOf(document, isObject(schemas.Input) ? schemas.Input : undefined);
}

/** The names each gateway field usually has in an endpoint's input, best first. */
const NAMES: Readonly<Record<GatewayField, readonly string[]>> = {
  prompt: ['prompt', 'text', 'text_prompt'],
  first_frame: [
    'image_url',
    'start_image_url',
    'first_frame_url',
    'start_image',
    'first_frame_image',
    'image',
    'input_image',
    'first_frame',
  ],
  last_frame: [
    'tail_image_url',
    'end_image_url',
    'last_frame_url',
    'end_image',
    'last_frame_image',
    'last_image',
    'last_frame',
    'tail_image',
  ],
  seconds: ['duration', 'seconds', 'num_seconds', 'length', 'video_length'],
  aspect_ratio: ['aspect_ratio', 'ratio'],
  resolution: ['resolution', 'quality'],
  audio: ['generate_audio', 'audio', 'with_audio', 'enable_audio', 'sound'],
  negative_prompt: ['negative_prompt'],
  seed: ['seed'],
};

/** How the schema writes a number: `"5s"` (seconds), `"5"` (string) or 5. */
function numberForm(property: SchemaProperty): NumberForm {
  const sample = property.enum?.[0] ?? property.default;
  if (typeof sample === 'string') return /^\d+s$/.test(sample) ? 'seconds' : 'string';
  return property.type === 'string' ? 'string' : 'integer';
}

/** A resolution enum's spelling of the gateway's lower-case values, where it differs (`768P`). */
function spellings(property: SchemaProperty): InputTarget['values'] {
  const values = (property.enum ?? []).filter((value): value is string => typeof value === 'string');
  const differing = values.filter((value) => value !== value.toLowerCase());
  return differing.length > 0 ? Object.fromEntries(differing.map((value) => [value.toLowerCase(), value])) : undefined;
}

/**
 * The `input_map` proposed for an endpoint: each gateway field whose usual name the input has,
 * numbers written as the schema writes them, resolution spellings where they differ. Each input
 * property is taken once. The operator edits it before saving.
 */
export function proposeInputMap(schema: EndpointInputSchema): InputMap {
  const taken = new Set<string>();
  const map: InputMap = {};
  for (const [gatewayField, names] of Object.entries(NAMES) as [GatewayField, readonly string[]][]) {
    const name = names.find((candidate) => schema.properties[candidate] !== undefined && !taken.has(candidate));
    if (name === undefined) continue;
    taken.add(name);
    const property = schema.properties[name];
    if (gatewayField === 'seconds' || gatewayField === 'seed') {
      const as = numberForm(property);
      map[gatewayField] = as === 'integer' ? { field: name } : { field: name, as };
    } else if (gatewayField === 'resolution' || gatewayField === 'aspect_ratio') {
      const values = spellings(property);
      map[gatewayField] = values ? { field: name, values } : { field: name };
    } else map[gatewayField] = { field: name };
  }
  return map;
}

/** The map as the route option is written: a bare name where the target is only a name. */
export function inputMapOption(map: InputMap): Record<string, string | InputTarget> {
  return Object.fromEntries(
    Object.entries(map).map(([field, target]) => [field, Object.keys(target).length === 1 ? target.field : target]),
  );
}

/** An emulator's field table (a type, or a list of allowed values) as JSON Schema properties. */
export function schemaOfFields(
  fields: Readonly<Record<string, 'string' | 'number' | 'integer' | 'boolean' | readonly (string | number)[]>>,
  required: readonly string[],
): { type: 'object'; properties: Record<string, SchemaProperty>; required: string[] } {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, type]) =>
      typeof type === 'string'
        ? [name, { type, title: name }]
        : [name, { type: typeof type[0] === 'number' ? 'integer' : 'string', enum: [...type], default: type[0], title: name }],
    ),
  );
  return { type: 'object', properties, required: [...required] };
}
