import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import type { RequestExample, SubmitForm } from './family';
import { FAMILIES } from './family-registry';

/** A field of every family's body on both forms (the webhooks module takes it out before the family's schema). */
const CALLBACK_URL_SCHEMA = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  example: 'https://example.com/hooks/video',
  description:
    'Optional. When the task ends, its `video.completed` / `video.failed` event is POSTed here (Standard Webhooks headers, signed with ' +
    "the account's callback secret from `POST /v1/webhooks/callback-secret`, retried like an endpoint's events). http(s); a public host " +
    'unless MEDIA_ALLOW_PRIVATE_HOSTS=true. Without a callback secret the submit is a 400 naming `callback_url`, and nothing is charged.',
};

/**
 * The request body of a submit form, as Swagger shows it: one of the request schemas of the families
 * that take the form (the classes their bodies are validated with), and their examples, so that
 * "Try it out" starts from a body the simulator accepts. Beside them, `callback_url`, which every family takes.
 */
export function ApiSubmitBody(form: SubmitForm, description: string): MethodDecorator {
  const families = FAMILIES.filter((family) => family.forms.includes(form));
  const schemas = families.map((family) => family.request.schema);
  const examples: Record<string, RequestExample> = Object.assign({}, ...families.map((family) => family.request.examples[form] ?? {}));
  return applyDecorators(
    ApiExtraModels(...schemas),
    ApiBody({
      description,
      required: true,
      schema: { oneOf: schemas.map((schema) => ({ $ref: getSchemaPath(schema) })), properties: { callback_url: CALLBACK_URL_SCHEMA } },
      examples,
    }),
  );
}
