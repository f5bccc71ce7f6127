import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import type { RequestExample, SubmitForm } from './family';
import { FAMILIES } from './family-registry';

/**
 * The request body of a submit form, as Swagger shows it: one of the request schemas of the families
 * that take the form (the classes their bodies are validated with), and their examples, so that
 * "Try it out" starts from a body the simulator accepts.
 */
export function ApiSubmitBody(form: SubmitForm, description: string): MethodDecorator {
  const families = FAMILIES.filter((family) => family.forms.includes(form));
  const schemas = families.map((family) => family.request.schema);
  const examples: Record<string, RequestExample> = Object.assign({}, ...families.map((family) => family.request.examples[form] ?? {}));
  return applyDecorators(
    ApiExtraModels(...schemas),
    ApiBody({ description, required: true, schema: { oneOf: schemas.map((schema) => ({ $ref: getSchemaPath(schema) })) }, examples }),
  );
}
