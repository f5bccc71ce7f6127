import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type pino from 'pino';
import type { AccountRateLimiter } from '../auth/account-rate-limiter';
import type { ApiKeyEntity } from '../auth/api-key.entity';
import type { ApiKeysService } from '../auth/api-keys.service';
import { MISSING_API_KEY } from '../auth/authenticate-before-body.middleware';
import { bearerToken } from '../auth/bearer';
import type { UserEntity } from '../auth/user.entity';
import { errorReply } from '../common/all-exceptions.filter';
import { AppError, ErrorCode } from '../common/app-error';
import { logRequest } from '../common/request-logging.middleware';
import type { SecurityHeaders } from '../common/security-headers';
import { toUnifiedTaskResponse } from '../generations/unified-task.view';
import type { ContentLinks } from '../storage/signed-links.service';
import type { TaskQueries } from '../tasks/task-queries.service';
import type { TaskEntity } from '../tasks/task.entity';
import { toFlatVideo } from '../videos/flat-video.view';
import type { FastRoute } from './fast-lane';
import { writeJson } from './json-reply';

export interface TaskPollDependencies {
  logger: pino.Logger;
  securityHeaders: SecurityHeaders;
  apiKeys: ApiKeysService;
  accountLimits: AccountRateLimiter;
  tasks: TaskQueries;
  links: ContentLinks;
}

/**
 * `GET /v1/videos/{id}` and `GET /v1/video/generations/{task_id}` on the fast lane: the same steps as
 * the routes in VideosController and GenerationsController behind their guard (API key, account
 * rate limit, the caller's own visible task, the view), with their errors in each surface's shape.
 */
export function taskPollRoutes(deps: TaskPollDependencies): FastRoute[] {
  return [
    pollRoute(deps, /^\/v1\/videos\/([^/]+)\/?$/i, '/v1/videos/:id', (task) => toFlatVideo(task, deps.links)),
    pollRoute(deps, /^\/v1\/video\/generations\/([^/]+)\/?$/i, '/v1/video/generations/:task_id', (task) => toUnifiedTaskResponse(task, deps.links)),
  ];
}

function pollRoute(deps: TaskPollDependencies, pattern: RegExp, route: string, view: (task: TaskEntity) => unknown): FastRoute {
  const headers: OutgoingHttpHeaders = Object.fromEntries(deps.securityHeaders.set);
  return {
    method: 'GET',
    pattern,
    async handle(req: IncomingMessage, res: ServerResponse, taskId: string, path: string): Promise<void> {
      let caller: { apiKey: ApiKeyEntity; user: UserEntity } | undefined;
      // As Express logs it: the route's pattern once the caller is known, else the path.
      logRequest(deps.logger, req, res, () => ({ keyId: caller?.apiKey.id ?? null, userId: caller?.user.id ?? null, route: caller ? route : path, path }));
      try {
        const token = bearerToken(req);
        if (!token) throw new AppError(ErrorCode.Unauthorized, MISSING_API_KEY);
        const found = await deps.apiKeys.authenticate(token);
        await deps.accountLimits.admit(found.user);
        caller = found;
        writeJson(req, res, 200, view(await deps.tasks.findOwned(found.user.id, taskId)), headers);
      } catch (error) {
        const reply = errorReply(error, 'GET', path, req.url);
        writeJson(req, res, reply.status, reply.body, reply.retryAfterSeconds === undefined ? headers : { ...headers, 'Retry-After': String(reply.retryAfterSeconds) });
      }
    },
  };
}
