import type { INestApplication, Type } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AllExceptionsFilter, sendError } from '../common/errors/all-exceptions.filter';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { RequestValidationPipe } from '../common/http/validation';
import { GenerationsController } from '../generations/generations.controller';
import { InputReferenceInterceptor } from '../videos/input-reference.interceptor';
import { VideosController } from '../videos/videos.controller';
import { hasJsonBody } from '../common/http/request-body-kind';
import { checkGlobalEnhancers, HotDispatchApplies, hotRouteHandler, HotRouteHandler } from './hot-route-contract';
import { sendJson } from '../common/http/json-reply';

/**
 * Measured gain of the hot dispatch over the framework's own path (CPU per request, the median of 24 alternated rounds
 * side by side on the 2-core machine, 2026-12-02): quote x4.16 (quartiles 2.97-6.75), GET /v1/videos/{id} x2.67 (2.36-3.98). Command: `BENCH=ab BENCH_BASELINE=<this code with it switched off> BENCH_AB_ROUTE=quote|get BENCH_ROUNDS=24 npm run bench`,
 * the baseline off: `configureApp`'s `hotRoutes` false. Under x1.10 it would go back to the framework (docs/benchmarks.md, "The bypasses, measured").
 */

interface HotRoute extends HotRouteHandler {
  /** Which of the matching requests are taken (the rest go on to Express and Nest). */
  takes?: (req: IncomingMessage) => boolean;
}

/**
 * What the hot dispatch does itself in place of an enhancer Nest runs around the methods it calls (on
 * the method, its controller, or globally). Anything else there stops the start (hot-route-contract.ts):
 * a guard, pipe, interceptor or filter added to such a method is applied here, and listed, or the route
 * leaves the hot dispatch.
 */
export const HOT_DISPATCH_APPLIES: HotDispatchApplies = {
  // The pipeline's authenticateApiKeyBeforeBody makes the guard's check (authenticateApiKey); the guard then only finds req.user set.
  guards: [ApiKeyGuard],
  // multer reads multipart bodies only: a JSON body, all the hot submits take, passes it with req.files unset.
  interceptors: [InputReferenceInterceptor],
  // Global (APP_PIPE): leaves as they are the parameter types the hot dispatch takes (hot-route-contract.ts, PASSED_AS_IS).
  pipes: [RequestValidationPipe],
  // Global: an error goes to sendError, as this filter sends it.
  filters: [AllExceptionsFilter],
};

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const isPrototypeOf = Object.prototype.isPrototypeOf;

/**
 * The task polls and the JSON submits (most of the traffic) are dispatched in front of Express's
 * router and Nest's per-route layers, which cost several times a poll's own work. A taken request
 * gets Express's own request and response (as app.handle makes them), then runs the very middlewares
 * every route runs (`pipeline`: request id and log, security headers, API key and account rate limit,
 * body parser, the unstorable-text check), then the Nest route's own controller method; it answers as Nest's Express adapter
 * does (`res.status(status).json`, so Express's ETag and 304) and any error goes to sendError, as the
 * exception filter does. Nothing here decides anything those pieces decide. Anything else (HEAD, an
 * undecodable id, a multipart submit) goes on to Express and the Nest routes.
 * Each route's method, path, status and arguments are read from Nest's metadata of the controller
 * method, and the start stops (HotDispatchDriftError) where Nest would run something around it that
 * HOT_DISPATCH_APPLIES does not list.
 */
export function installHotRoutes(app: INestApplication, pipeline: RequestHandler[]): void {
  const server = app.getHttpServer() as Server;
  const express = app.getHttpAdapter().getInstance() as Express;
  // Nest's own route metadata decides how each method is called, and refuses the start where the hot dispatch would differ.
  checkGlobalEnhancers(app.get(ApplicationConfig), HOT_DISPATCH_APPLIES);
  const route = <T extends object>(controller: Type<T>, method: keyof T & string) =>
    hotRouteHandler(controller, method, app.get(controller), HOT_DISPATCH_APPLIES);
  const routes: HotRoute[] = [
    // Before `get`, whose `/v1/videos/:id` would take `models` for a task id.
    route(VideosController, 'models'),
    route(VideosController, 'get'),
    route(GenerationsController, 'get'),
    { ...route(VideosController, 'create'), takes: hasJsonBody },
    { ...route(GenerationsController, 'create'), takes: hasJsonBody },
    { ...route(VideosController, 'quote'), takes: hasJsonBody },
    { ...route(GenerationsController, 'quote'), takes: hasJsonBody },
  ];
  const behind = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', function answerHotRoutes(req: IncomingMessage, res: ServerResponse) {
    const match = matchRoute(routes, req);
    if (!match) return behind.forEach((listener) => listener.call(server, req, res));
    // As Express's app.handle: its request and response, linked. GatewayExpressAdapter's server makes
    // them so from the start: a swap of prototypes here would cost about as much as the rest of a poll.
    if (!isPrototypeOf.call(express.request, req)) Object.setPrototypeOf(req, express.request);
    if (!isPrototypeOf.call(express.response, res)) Object.setPrototypeOf(res, express.response);
    const request = req as AuthenticatedRequest;
    const response = res as Response;
    request.res = response;
    response.req = request;
    response.locals = Object.create(null);
    runPipeline(pipeline, request, response, () => {
      // As Express's router once a route is found: its path (the request log names it) and parameters.
      request.route = { path: match.route.path };
      request.params = match.params;
      match.route.call(request).then(
        (body) => sendJson(response, match.route.status, body),
        (error: unknown) => sendError(error, request, response),
      );
    });
  });
}

/** Runs the middlewares in order, as Express would; an error goes to sendError, as Express's error handler does. */
function runPipeline(pipeline: RequestHandler[], req: Request, res: Response, done: () => void): void {
  let index = 0;
  const next: NextFunction = (error?: unknown) => {
    if (error) return sendError(error, req, res);
    const handler = pipeline[index++];
    if (!handler) return done();
    try {
      void handler(req, res, next);
    } catch (thrown) {
      sendError(thrown, req, res);
    }
  };
  next();
}

function matchRoute(routes: HotRoute[], req: IncomingMessage): { route: HotRoute; params: Record<string, string> } | null {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  for (const route of routes) {
    if (req.method !== route.method) continue;
    const found = route.pattern.exec(path);
    if (!found || (route.takes && !route.takes(req))) continue;
    const params: Record<string, string> = {};
    for (let index = 0; index < route.params.length; index++) {
      const param = decodeParam(found[index + 1]);
      if (param === null) return null;
      params[route.params[index]] = param;
    }
    return { route, params };
  }
  return null;
}

/** As Express decodes a route parameter; null when it cannot be (Express then answers 400 itself). */
function decodeParam(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
