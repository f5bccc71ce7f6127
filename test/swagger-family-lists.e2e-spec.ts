import { getSchemaPath } from '@nestjs/swagger';
import type { FamilyDefinition, SubmitForm } from '../src/families/family';
import { FamilyRegistry } from '../src/families/family-registry';
import { cancellableStates } from '../src/upstream/upstream-adapter';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

type Json = Record<string, any>;

/** Issue 36: wherever the API documentation lists the families or their models, it lists every registered one, as registered. */
describeOnSqlite('swagger: the lists of families and models come from the family registry', (kind) => {
  let gw: TestGateway;
  let docs: Json;
  let families: readonly FamilyDefinition[];

  beforeAll(async () => {
    gw = await startGateway(kind);
    docs = (await gw.http.get('/docs-json').expect(200)).body;
    families = gw.app.get(FamilyRegistry).all();
  });
  afterAll(async () => gw?.close());

  const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
  const schemaName = (family: FamilyDefinition) => refName(getSchemaPath(family.request.schema));
  const named = (text: string, family: FamilyDefinition) => text.includes(family.label.en);

  it.each([
    ['/v1/videos', 'flat'],
    ['/v1/video/generations', 'unified'],
  ] as const)(
    'POST %s (the %s form) names each family whose bodies it takes, no other, and each of their models',
    (path, form: SubmitForm) => {
      const operation = docs.paths[path].post;
      const taking = families.filter((family) => family.forms.includes(form));
      expect(taking.length).toBeGreaterThan(0);
      for (const family of families) {
        expect({ family: family.platform, named: named(operation.summary, family) }).toEqual({
          family: family.platform,
          named: family.forms.includes(form),
        });
      }
      for (const model of taking.flatMap((family) => family.models)) expect(operation.description).toContain(`\`${model}\``);
      const oneOf = operation.requestBody.content['application/json'].schema.oneOf as { $ref: string }[];
      expect(oneOf.map((schema) => refName(schema.$ref))).toEqual(taking.map(schemaName));
    },
  );

  it('lists every cancel route as answering 200 with the task, never an empty 201', () => {
    const cancels = Object.keys(docs.paths).filter((path) => path.endsWith('/cancel'));
    expect(cancels).toEqual(expect.arrayContaining(['/v1/videos/{id}/cancel', '/v1/video/generations/{task_id}/cancel']));
    for (const path of cancels) {
      const responses = docs.paths[path].post.responses as Json;
      expect({ path, codes: Object.keys(responses).filter((code) => code.startsWith('2')) }).toEqual({ path, codes: ['200'] });
      expect(responses['200'].content['application/json'].schema).toBeDefined();
    }
  });

  it('says the API key and the admin token are opaque bearer tokens, not JWTs', () => {
    const schemes = docs.components.securitySchemes as Json;
    expect(Object.keys(schemes).sort()).toEqual(['admin', 'api-key']);
    for (const scheme of Object.values(schemes)) {
      expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(scheme.bearerFormat).not.toBe('JWT');
    }
  });

  it.each(['/v1/videos/{id}/cancel', '/v1/video/generations/{task_id}/cancel'])(
    'POST %s names each family where its provider can cancel, or where it cannot',
    (path) => {
      const operation = docs.paths[path].post;
      const cannot: string = operation.responses['409'].description;
      for (const family of families) {
        const states = cancellableStates(family.adapter);
        expect({ family: family.platform, stops: named(operation.description, family), cannot: named(cannot, family) }).toEqual({
          family: family.platform,
          stops: states.length > 0,
          cannot: states.length < 2,
        });
      }
    },
  );

  it('what a family can cancel is read from its adapter class as the running adapter has it (a getter, not an instance field)', () => {
    const registry = gw.app.get(FamilyRegistry);
    for (const family of families) {
      expect({ family: family.platform, states: cancellableStates(registry.adapter(family.platform)) }).toEqual({
        family: family.platform,
        states: cancellableStates(family.adapter),
      });
    }
  });

  it("the platform enums list every family's platform; a customer's task names none", () => {
    const platforms = families.map((family) => family.platform);
    expect(docs.components.schemas.UnifiedTask.properties.platform).toMatchObject({ example: '' });
    expect(docs.components.schemas.UnifiedTask.properties.platform.enum).toBeUndefined();
    const adminPlatform = Object.values(docs.components.schemas as Record<string, Json>).filter(
      (schema) => schema.properties?.platform?.enum,
    );
    expect(adminPlatform.length).toBeGreaterThan(1);
    for (const schema of adminPlatform) expect(schema.properties.platform.enum).toEqual(platforms);
  });

  it("each family's request schema lists (where it lists them) exactly the family's models", () => {
    for (const family of families) {
      const schema = docs.components.schemas[schemaName(family)];
      expect(schema).toBeDefined();
      const listed: string[] | undefined = schema.properties.model.enum;
      if (listed)
        expect({ family: family.platform, models: [...listed].sort() }).toEqual({
          family: family.platform,
          models: [...family.models].sort(),
        });
    }
  });
});
