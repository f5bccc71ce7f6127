import { FAL_MODELS } from '../fal/fal-catalog';
import { FalEmulator } from '../fal/emulator/fal-emulator';
import { REPLICATE_MODELS } from '../replicate/replicate-catalog';
import { ReplicateEmulator } from '../replicate/emulator/replicate-emulator';
import { upstreamModelOf } from '../../catalog/catalog-entry';
import { emulatorRequest, emulatorState, replyJson } from './emulator.spec-support';
import { falInputSchema, inputMapOption, proposeInputMap, replicateInputSchema } from './endpoint-schema';
import { checkInputMap, inputMapOf } from './input-map';
import type { BuiltinModel } from './builtin-entry';

/** fal's document as fal.ai publishes one (abridged from the kling-video image-to-video endpoint's). */
const FAL_DOCUMENT = {
  openapi: '3.0.4',
  paths: {
    '/fal-ai/kling-video/v2.5-turbo/pro/image-to-video': {
      post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/KlingI2VInput' } } } } },
    },
    '/fal-ai/kling-video/v2.5-turbo/pro/image-to-video/requests/{request_id}': { get: {} },
  },
  components: {
    schemas: {
      KlingI2VInput: {
        'x-fal-order-properties': ['prompt', 'image_url', 'duration', 'negative_prompt', 'tail_image_url'],
        type: 'object',
        required: ['prompt', 'image_url'],
        properties: {
          tail_image_url: { type: 'string', title: 'Tail Image Url' },
          duration: { enum: ['5', '10'], type: 'string', default: '5', title: 'Duration' },
          prompt: { maxLength: 2500, type: 'string', title: 'Prompt' },
          negative_prompt: { type: 'string', default: 'blur, distort, and low quality' },
          image_url: { type: 'string', description: 'URL of the image to be used for the video' },
        },
      },
      KlingOutput: { type: 'object', properties: { video: { $ref: '#/components/schemas/File' } } },
    },
  },
};

describe('reading a published input schema', () => {
  it("fal: the body of POST /<endpoint>, in fal's property order, required kept", () => {
    const schema = falInputSchema(FAL_DOCUMENT, 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video')!;
    expect(Object.keys(schema.properties)).toEqual(['prompt', 'image_url', 'duration', 'negative_prompt', 'tail_image_url']);
    expect(schema.required).toEqual(['prompt', 'image_url']);
    expect(schema.properties.duration).toEqual({ enum: ['5', '10'], type: 'string', default: '5', title: 'Duration' });
    expect(falInputSchema({ openapi: '3.0.4' }, 'fal-ai/x')).toBeNull();
  });

  it("Replicate: the latest version's Input, an enum behind allOf/$ref folded in, a nullable type read through anyOf", () => {
    const model = {
      latest_version: {
        openapi_schema: {
          components: {
            schemas: {
              Input: {
                type: 'object',
                required: ['prompt'],
                properties: {
                  prompt: { type: 'string', title: 'Prompt' },
                  start_image: { anyOf: [{ type: 'string', format: 'uri' }, { type: 'null' }], title: 'Start Image' },
                  duration: { allOf: [{ $ref: '#/components/schemas/duration' }], default: 5 },
                },
              },
              duration: { title: 'duration', type: 'integer', enum: [5, 10], description: 'An enumeration.' },
            },
          },
        },
      },
    };
    const schema = replicateInputSchema(model)!;
    expect(schema.properties.duration).toEqual({
      type: 'integer',
      enum: [5, 10],
      default: 5,
      title: 'duration',
      description: 'An enumeration.',
    });
    expect(schema.properties.start_image).toMatchObject({ type: 'string', format: 'uri' });
    expect(proposeInputMap(schema)).toEqual({
      prompt: { field: 'prompt' },
      first_frame: { field: 'start_image' },
      seconds: { field: 'duration' },
    });
    expect(replicateInputSchema({ latest_version: null })).toBeNull();
  });

  it('proposes what a route option takes: numbers as the schema writes them, resolution spellings that differ', () => {
    const map = inputMapOption(
      proposeInputMap({
        properties: {
          prompt: { type: 'string' },
          duration: { type: 'string', enum: ['4s', '8s'] },
          resolution: { type: 'string', enum: ['512P', '768P'] },
          seed: { type: 'integer' },
          end_image_url: { type: 'string' },
          prompt_optimizer: { type: 'boolean' },
        },
        required: ['prompt'],
      }),
    );
    expect(map).toEqual({
      prompt: 'prompt',
      last_frame: 'end_image_url',
      seconds: { field: 'duration', as: 'seconds' },
      resolution: { field: 'resolution', values: { '512p': '512P', '768p': '768P' } },
      seed: 'seed',
    });
    expect(checkInputMap(map)).toBeNull();
  });
});

/**
 * The builtin routes' maps were written by hand from the providers' pages: what the simulators publish
 * for the same endpoints proposes each of their fields the same way (the proposal may find more).
 */
describe('the proposal from the simulators agrees with every builtin route', () => {
  const endpointsOf = (model: BuiltinModel) =>
    [
      ...new Set(
        (['text-to-video', 'image-to-video'] as const).map((mode) =>
          upstreamModelOf({ platform: 'fal', upstreamModel: model.upstreamModel! }, mode),
        ),
      ),
    ].filter((id): id is string => id !== null);

  it('fal', async () => {
    const emulator = new FalEmulator({ apiKey: 'k:s', ...emulatorState(() => 0) });
    for (const model of FAL_MODELS)
      for (const endpoint of endpointsOf(model)) {
        const url = `/api/openapi/queue/openapi.json`;
        const reply = await emulator.handle(
          { ...emulatorRequest('GET', url, undefined, ''), query: new URLSearchParams({ endpoint_id: endpoint }) },
          'http://sim',
        );
        const schema = falInputSchema(replyJson(reply), endpoint)!;
        const proposed = proposeInputMap(schema);
        for (const [field, target] of Object.entries(inputMapOf(model.options?.input_map))) {
          // The route's one map serves both of its endpoints: a field only one of them takes is the other's to propose.
          if (schema.properties[target.field] === undefined) continue;
          expect({ endpoint, field, target: proposed[field as keyof typeof proposed] }).toEqual({ endpoint, field, target });
        }
      }
  });

  it('Replicate, read through the version route too', async () => {
    const emulator = new ReplicateEmulator({ apiToken: 't', ...emulatorState(() => 0) });
    for (const model of REPLICATE_MODELS) {
      const reference = model.upstreamModel as string;
      const reply = await emulator.handle(emulatorRequest('GET', `/v1/models/${reference}`, undefined, 'Bearer t'), 'http://sim');
      const proposed = proposeInputMap(replicateInputSchema(replyJson(reply))!);
      expect(proposed).toMatchObject(inputMapOf(model.options?.input_map));
      const version = await emulator.handle(
        emulatorRequest('GET', `/v1/models/${reference}/versions/${'c'.repeat(64)}`, undefined, 'Bearer t'),
        'http://sim',
      );
      expect(replicateInputSchema({ latest_version: replyJson(version) })).toEqual(replicateInputSchema(replyJson(reply)));
    }
  });
});
