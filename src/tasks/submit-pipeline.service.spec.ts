import type { ApiKeyEntity } from '../auth/api-key.entity';
import type { UserEntity } from '../auth/user.entity';
import type { AppConfig } from '../config/app-config';
import type { FamilyDefinition, FamilyDrafts, SubmitInput } from '../families/family';
import type { FamilyRegistry } from '../families/family-registry';
import type { ModelCatalog } from '../families/model-catalog.service';
import { AppError } from '../common/errors/app-error';
import type { DispatchPlanner } from './dispatch/dispatch-planner.service';
import { RouteDrafting } from './route-drafting.service';
import { SubmitPipeline } from './submit-pipeline.service';
import type { TaskEntity } from './task.entity';
import type { TaskDraft, TaskSubmitService } from './task-submit.service';
import { TaskSubmitFields } from './task-submit-fields';

/** A fake family "fake-*" on the unified form only; what reaches the task core is recorded. */
function pipelineWithFakeFamily() {
  const submitted: TaskDraft[] = [];
  const released: string[] = [];
  const drafts: FamilyDrafts = {
    prepare: async (model) => ({
      draft: { platform: 'fake', model, action: 'textGenerate', request: {}, quote: { model, resolution: '720p', seconds: 5 } },
      release: () => released.push(model),
    }),
  };
  const family = { platform: 'fake', forms: ['unified'], models: ['fake-1'] } as unknown as FamilyDefinition;
  const route = { platform: 'fake', upstreamModel: 'fake-1-upstream' };
  const entry: {
    id: string;
    aliases: string[];
    durations: number[];
    resolutions: string[];
    audio: string;
    modes: string[];
    routes: unknown[];
  } = {
    id: 'fake-1',
    aliases: [],
    durations: [5],
    resolutions: ['720p'],
    audio: 'none',
    modes: ['text-to-video'],
    routes: [route],
  };
  const catalog = {
    usable: async (name: string) => {
      if (name.toLowerCase() === 'fake-1') return entry;
      throw AppError.invalid(`unknown model: ${name}`, 'model');
    },
    routesOf: () => [{ family, route }],
    allows: async (allowlist: string[] | null, { id }: { id: string }) => allowlist === null || allowlist.includes(id),
    replacementFor: async () => null,
  } as unknown as ModelCatalog;
  const registry = {
    draftsOf: () => drafts,
    assetModels: () => ['gamma-2-0', 'gamma-2-0-fast'],
  } as unknown as FamilyRegistry;
  const tasks = {
    submit: async (draft: TaskDraft) => (submitted.push(draft), { taskId: 'task_1' } as TaskEntity),
  } as unknown as TaskSubmitService;
  return {
    entry,
    pipeline: new SubmitPipeline(
      new RouteDrafting(registry, catalog),
      catalog,
      {} as DispatchPlanner,
      tasks,
      { maxGatewayHops: 3 } as AppConfig,
      new TaskSubmitFields(),
    ),
    submitted,
    released,
  };
}

const caller = (models: string[] | null = null) => ({ user: { id: 1 } as UserEntity, apiKey: { models } as ApiKeyEntity });
const unified = (body: Record<string, unknown>): SubmitInput => ({ form: 'unified', body });

describe('SubmitPipeline', () => {
  it("routes by the registry, passes the Idempotency-Key on and releases the family's draft", async () => {
    const { pipeline, submitted, released } = pipelineWithFakeFamily();
    await pipeline.submit(unified({ model: 'FAKE-1' }), caller(), { idempotencyKey: 'key-1' });
    expect(submitted).toEqual([expect.objectContaining({ model: 'fake-1', idempotencyKey: 'key-1' })]);
    expect(released).toEqual(['fake-1']);
  });

  it('one Idempotency-Key rule: absent is fine, empty or over 255 characters is a 400 naming it', async () => {
    const { pipeline, submitted } = pipelineWithFakeFamily();
    for (const key of ['', 'k'.repeat(256)]) {
      await expect(pipeline.submit(unified({ model: 'fake-1' }), caller(), { idempotencyKey: key })).rejects.toMatchObject({
        message: 'Idempotency-Key must be 1 to 255 characters',
        options: { param: 'Idempotency-Key' },
      });
    }
    await pipeline.submit(unified({ model: 'fake-1' }), caller(), {});
    expect(submitted).toHaveLength(1);
  });

  it('counts gateway hops: passes them on, refuses a submit past MAX_GATEWAY_HOPS or a hop count that is not one, before the family sees it', async () => {
    const { pipeline, submitted, released } = pipelineWithFakeFamily();
    await pipeline.submit(unified({ model: 'fake-1' }), caller(), { gatewayHops: '3' });
    expect(submitted).toEqual([expect.objectContaining({ gatewayHops: 3 })]);
    await expect(pipeline.submit(unified({ model: 'fake-1' }), caller(), { gatewayHops: '4' })).rejects.toMatchObject({
      code: 'too_many_gateway_hops',
      message: expect.stringMatching(/^request has passed through too many gateways \(4, at most 3\)/),
      options: { param: 'X-Gateway-Hops' },
    });
    for (const raw of ['-1', 'two', '1, 2', '']) {
      await expect(pipeline.submit(unified({ model: 'fake-1' }), caller(), { gatewayHops: raw })).rejects.toMatchObject({
        code: 'invalid_request',
        options: { param: 'X-Gateway-Hops' },
      });
    }
    expect(submitted).toHaveLength(1);
    expect(released).toEqual(['fake-1']);
  });

  it('refuses unknown models, models of another form, models outside the key allowlist and foreign asset references', async () => {
    const { pipeline, submitted } = pipelineWithFakeFamily();
    await expect(pipeline.submit(unified({ model: 'other' }), caller(), {})).rejects.toMatchObject({ message: 'unknown model: other' });
    const flat: SubmitInput = { ...unified({ model: 'fake-1' }), form: 'flat' };
    await expect(pipeline.submit(flat, caller(), {})).rejects.toMatchObject({
      message: 'model fake-1 is not served on /v1/videos; submit it on /v1/video/generations',
    });
    await expect(pipeline.submit(unified({ model: 'fake-1' }), caller(['fake-2']), {})).rejects.toMatchObject({
      message: 'api key is not allowed to use model fake-1',
    });
    await expect(pipeline.submit(unified({ model: 'fake-1', image: 'asset://a1' }), caller(), {})).rejects.toMatchObject({
      message: expect.stringMatching(/^image: asset:\/\/ references can only be used with gamma-2-0 and gamma-2-0-fast/),
    });
    expect(submitted).toHaveLength(0);
  });

  it("checks the family's draft against the catalog entry before the task core, and sends the route's upstream model", async () => {
    const { pipeline, submitted, entry } = pipelineWithFakeFamily();
    await pipeline.submit(unified({ model: 'fake-1' }), caller(), {});
    expect(submitted).toEqual([expect.objectContaining({ model: 'fake-1', routeModel: 'fake-1-upstream' })]);
    // The operator narrowed the entry: the family's 5 s draft is now refused, naming the field the client sent.
    entry.durations = [10];
    await expect(pipeline.submit(unified({ model: 'fake-1', seconds: '5' }), caller(), {})).rejects.toMatchObject({
      message: 'seconds must be 10 seconds for fake-1',
      options: { param: 'seconds' },
    });
    entry.durations = [5];
    entry.resolutions = ['1080p'];
    await expect(pipeline.submit(unified({ model: 'fake-1' }), caller(), {})).rejects.toMatchObject({
      message: 'resolution must be 1080p for fake-1',
      options: { param: 'resolution' },
    });
    expect(submitted).toHaveLength(1);
  });
});
