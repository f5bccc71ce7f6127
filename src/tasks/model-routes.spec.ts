import { ModelRoutes } from './model-routes';
import type { TaskDraft } from './task-draft';

const draftOn = (platform: string): TaskDraft => ({
  platform,
  model: 'm',
  action: 'textGenerate',
  request: {},
  quote: { model: 'm', resolution: '720p', seconds: 5 },
});

describe('ModelRoutes', () => {
  it("answers the validated draft on its own platform and builds another route's once, on first use", async () => {
    let builds = 0;
    let released = 0;
    const routes = ModelRoutes.of(draftOn('kling'), [
      { platform: 'fal', build: async () => (builds++, { draft: draftOn('fal'), release: () => released++ }) },
    ]);
    expect(routes.platforms()).toEqual(['kling', 'fal']);
    expect(builds).toBe(0);
    expect((await routes.draftOn('kling'))?.platform).toBe('kling');
    expect(builds).toBe(0);
    const [first, second] = await Promise.all([routes.draftOn('fal'), routes.draftOn('fal')]);
    expect(first?.platform).toBe('fal');
    expect(second).toBe(first);
    expect(builds).toBe(1);
    routes.release();
    routes.release();
    expect(released).toBe(1);
  });

  it("passes over a route whose family refuses the request, and one the model has not: null, the client's submit goes on", async () => {
    const routes = ModelRoutes.of(draftOn('kling'), [
      {
        platform: 'fal',
        build: () => Promise.reject(new Error('negative_prompt is not taken')),
      },
    ]);
    expect(await routes.draftOn('fal')).toBeNull();
    expect(await routes.draftOn('replicate')).toBeNull();
  });
});
