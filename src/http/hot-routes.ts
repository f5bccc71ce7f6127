import type { INestApplication } from '@nestjs/common';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { sendError } from '../common/errors/all-exceptions.filter';
import type { AuthenticatedRequest } from '../common/http/request-context';
import { GenerationsController } from '../generations/generations.controller';
import { VideosController } from '../videos/videos.controller';
import { hasJsonBody } from './body-parsers';
import { sendJson } from './json-reply';

interface HotRoute {
  method: 'GET' | 'POST';
  /** Matched against the path case-insensitively, with an optional trailing slash, as Express matches routes; the group is the parameter. */
  pattern: RegExp;
  /** The Nest route's path and parameter name, as Express would set req.route and req.params. */
  path: string;
  param?: string;
  /** Which of the matching requests are taken (the rest go on to Express and Nest). */
  takes?: (req: IncomingMessage) => boolean;
  handle(req: AuthenticatedRequest): Promise<unknown>;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const isPrototypeOf = Object.prototype.isPrototypeOf;

/**
 * The task polls and the JSON submits (most of the traffic) are dispatched in front of Express's
 * router and Nest's per-route layers, which cost several times a poll's own work. A taken request
 * gets Express's own request and response (as app.handle makes them), then runs the very middlewares
 * every route runs (`pipeline`: request id and log, security headers, API key and account rate limit,
 * body parser, the unstorable-text check), then the Nest route's own controller method; it answers as Nest's Express adapter
 * does (`res.status(200).json`, so Express's ETag and 304) and any error goes to sendError, as the
 * exception filter does. Nothing here decides anything those pieces decide. Anything else (HEAD, an
 * undecodable id, a multipart submit) goes on to Express and the Nest routes.
 */
export function installHotRoutes(app: INestApplication, pipeline: RequestHandler[]): void {
  const server = app.getHttpServer() as Server;
  const express = app.getHttpAdapter().getInstance() as Express;
  const videos = app.get(VideosController);
  const generations = app.get(GenerationsController);
  const routes: HotRoute[] = [
    {
      method: 'GET',
      pattern: /^\/v1\/videos\/([^/]+)\/?$/i,
      path: '/v1/videos/:id',
      param: 'id',
      handle: (req) => videos.get(req.params.id as string, req),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/video\/generations\/([^/]+)\/?$/i,
      path: '/v1/video/generations/:task_id',
      param: 'task_id',
      handle: (req) => generations.get(req.params.task_id as string, req),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/videos\/?$/i,
      path: '/v1/videos',
      takes: hasJsonBody,
      handle: (req) => videos.create(req.body, undefined, req),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/video\/generations\/?$/i,
      path: '/v1/video/generations',
      takes: hasJsonBody,
      handle: (req) => generations.create(req.body, req),
    },
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
      request.params = match.route.param ? { [match.route.param]: match.param } : {};
      match.route.handle(request).then(
        (body) => sendJson(response, 200, body),
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

function matchRoute(routes: HotRoute[], req: IncomingMessage): { route: HotRoute; param: string } | null {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  for (const route of routes) {
    if (req.method !== route.method) continue;
    const found = route.pattern.exec(path);
    if (!found || (route.takes && !route.takes(req))) continue;
    const param = found[1] === undefined ? '' : decodeParam(found[1]);
    return param === null ? null : { route, param };
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
