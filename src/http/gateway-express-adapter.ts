import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest's Express adapter, with one change: the HTTP server makes every request and response an
 * Express request and response from the start (classes whose prototypes lead to the app's
 * `request` and `response`, through Node's documented `IncomingMessage`/`ServerResponse` options).
 * Express otherwise swaps the prototype of each one (`Object.setPrototypeOf` in `app.handle`), which
 * measured at about as much CPU as the rest of a task poll: V8 has to give every swapped object a new
 * shape, and Node's HTTP code then meets objects of many shapes. The hot routes (src/http/hot-routes.ts)
 * need no swap at all; a request Express routes is swapped as before. HTTPS and Nest's forced closing
 * of connections keep Nest's own server.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    if (options?.httpsOptions || options?.forceCloseConnections) return;
    const app = this.getInstance<Express>();
    const server = createServer(
      {
        IncomingMessage: inheriting(IncomingMessage, app.request),
        ServerResponse: inheriting(ServerResponse, app.response),
      },
      app,
    );
    this.setHttpServer(server);
  }
}

/** A subclass of `base` whose instances also inherit `prototype` (Express's request or response methods). */
function inheriting<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  class WithExpress extends base {}
  Object.setPrototypeOf(WithExpress.prototype, prototype);
  return WithExpress;
}
