import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { activeTracer, TASK_ID_ATTRIBUTE } from './tracing';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The routes whose `:id` is a task's id: a client's poll of a task is found by the task's id too. */
const TASK_ROUTE = /^\/v1\/video(s|\/generations)\/:id(\/|$)/;

/**
 * One server span per API request, around every listener of the server (the hot routes and Express
 * alike), a child of the client's `traceparent` when it sends one. The request's and response's
 * events run in the span's context, so what the route does after reading its body (the provider
 * call of a submit) is its child. Only the path is kept: a signed content link's query is a credential.
 * Installed only when tracing is on (configureApp): off, the server is left as it is.
 */
export function traceRequests(server: Server): void {
  const tracer = activeTracer();
  if (!tracer) return;
  const behind = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', function tracedRequest(req: IncomingMessage, res: ServerResponse) {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const span = tracer.startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: query === -1 ? url : url.slice(0, query) },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const routed = req as IncomingMessage & { route?: { path?: unknown }; params?: Record<string, string> };
      const route = typeof routed.route?.path === 'string' ? routed.route.path : null;
      if (route) {
        span.updateName(`${method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
        if (TASK_ROUTE.test(route) && routed.params?.id) span.setAttribute(TASK_ID_ATTRIBUTE, routed.params.id);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(active, () => {
      for (const listener of behind) listener.call(server, req, res);
    });
  });
}
