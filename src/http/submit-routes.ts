import { GenerationSubmitResponse } from '../generations/dto/generation-submit-response.dto';
import { unifiedSubmitInput } from '../generations/unified-submit-input';
import { submitHeadersOf } from '../tasks/submit-headers';
import type { SubmitPipeline } from '../tasks/submit-pipeline.service';
import { toSubmittedVideo } from '../videos/flat-video.view';
import { normalizeSubmitBody } from '../videos/submit-body';
import { apiKeyRoute, type ApiKeyRouteDependencies } from './api-key-route';
import type { BodyMemoryBudget } from './body-memory-budget';
import { hasJsonBody, parseBody, videoSubmitJsonParser } from './body-parsers';
import type { FastRoute } from './fast-lane';

export interface SubmitDependencies extends ApiKeyRouteDependencies {
  submissions: SubmitPipeline;
  bodyBudget: BodyMemoryBudget;
}

/**
 * `POST /v1/videos` and `POST /v1/video/generations` with a JSON body on the fast lane: as the
 * `create` routes of VideosController and GenerationsController, the body read by the same JSON
 * parser (limit, depth check, its errors) only once the key is known. A multipart or otherwise
 * typed submit goes on to Nest.
 */
export function submitRoutes(deps: SubmitDependencies): FastRoute[] {
  const json = videoSubmitJsonParser();
  return [
    apiKeyRoute(deps, {
      method: 'POST',
      pattern: /^\/v1\/videos\/?$/i,
      route: '/v1/videos',
      takes: hasJsonBody,
      answer: async (req, res, caller) => {
        const input = normalizeSubmitBody(await parseBody(json, deps.bodyBudget, req, res), undefined, false);
        return toSubmittedVideo(await deps.submissions.submit(input, caller, submitHeadersOf(req.headers)));
      },
    }),
    apiKeyRoute(deps, {
      method: 'POST',
      pattern: /^\/v1\/video\/generations\/?$/i,
      route: '/v1/video/generations',
      takes: hasJsonBody,
      answer: async (req, res, caller) => {
        const input = unifiedSubmitInput(await parseBody(json, deps.bodyBudget, req, res));
        return GenerationSubmitResponse.of(await deps.submissions.submit(input, caller, submitHeadersOf(req.headers)));
      },
    }),
  ];
}
