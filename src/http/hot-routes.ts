import type { INestApplication } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../common/request-context';
import { GenerationsController } from '../generations/generations.controller';
import { VideosController } from '../videos/videos.controller';
import { hasJsonBody } from './body-parsers';

type HotHandler = (req: AuthenticatedRequest) => Promise<unknown>;

/**
 * The task polls and the JSON submits (most of the traffic) as plain Express routes registered in
 * front of the Nest routes for the same paths. They come after the very same middlewares (request id
 * and log, security headers, API key and account rate limit, body parser) and call the very same
 * controller methods; they answer as Nest's Express adapter does (`res.status(200).json`, so
 * Express's ETag and 304) and hand errors to the same handler as the exception filter (sendError).
 * Only Nest's per-route layers are skipped: for these routes they would redo the key check the
 * middleware already did (ApiKeyGuard) and nothing else. Anything else on these paths (HEAD is
 * answered as GET by Express; a multipart submit) goes on to Nest.
 */
export function registerHotRoutes(server: Express, app: INestApplication): void {
  const videos = app.get(VideosController);
  const generations = app.get(GenerationsController);
  server.get('/v1/videos/:id', answer((req) => videos.get(req.params.id as string, req)));
  server.get('/v1/video/generations/:task_id', answer((req) => generations.get(req.params.task_id as string, req)));
  server.post('/v1/videos', jsonOnly, answer((req) => videos.create(req.body, undefined, req)));
  server.post('/v1/video/generations', jsonOnly, answer((req) => generations.create(req.body, req)));
}

/** A multipart (or otherwise typed) submit is the Nest route's, with its upload interceptor. */
function jsonOnly(req: Request, _res: Response, next: NextFunction): void {
  next(hasJsonBody(req) ? undefined : 'route');
}

/** As Nest answers a route with @HttpCode(200) or a GET: the handler's value as JSON, any error to the error handler. */
function answer(handle: HotHandler) {
  return (req: Request, res: Response, next: NextFunction): void => {
    handle(req as AuthenticatedRequest).then((body) => res.status(200).json(body), next);
  };
}
