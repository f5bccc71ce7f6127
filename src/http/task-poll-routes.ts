import { toUnifiedTaskResponse } from '../generations/unified-task.view';
import type { ContentLinks } from '../storage/signed-links.service';
import type { TaskQueries } from '../tasks/task-queries.service';
import { toFlatVideo } from '../videos/flat-video.view';
import { apiKeyRoute, type ApiKeyRouteDependencies } from './api-key-route';
import type { FastRoute } from './fast-lane';

export interface TaskPollDependencies extends ApiKeyRouteDependencies {
  tasks: TaskQueries;
  links: ContentLinks;
}

/**
 * `GET /v1/videos/{id}` and `GET /v1/video/generations/{task_id}` on the fast lane: as the routes of
 * VideosController and GenerationsController, the caller's own visible task in the surface's form.
 */
export function taskPollRoutes(deps: TaskPollDependencies): FastRoute[] {
  return [
    apiKeyRoute(deps, {
      method: 'GET',
      pattern: /^\/v1\/videos\/([^/]+)\/?$/i,
      route: '/v1/videos/:id',
      answer: async (_req, _res, caller, taskId) => toFlatVideo(await deps.tasks.findOwned(caller.user.id, taskId), deps.links),
    }),
    apiKeyRoute(deps, {
      method: 'GET',
      pattern: /^\/v1\/video\/generations\/([^/]+)\/?$/i,
      route: '/v1/video/generations/:task_id',
      answer: async (_req, _res, caller, taskId) => toUnifiedTaskResponse(await deps.tasks.findOwned(caller.user.id, taskId), deps.links),
    }),
  ];
}
