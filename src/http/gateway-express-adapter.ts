import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Idle keep-alive connections are kept longer than the proxies and clients in front keep theirs
 * (load balancers commonly 60 s; Node's own 5 s is shorter than most): the other side closes an idle
 * connection first, so a request is never sent on one the gateway is closing at that very moment,
 * which the client sees as a reset ("socket hang up", "other side closed").
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** While closing, connections whose last response has gone are closed this often. */
const CLOSING_SWEEP_MS = 200;

/**
 * Nest's Express adapter, with one change: the HTTP server makes every request and response an
 * Express request and response from the start (classes whose prototypes lead to the app's
 * `request` and `response`, through Node's documented `IncomingMessage`/`ServerResponse` options).
 * Express otherwise swaps the prototype of each one (`Object.setPrototypeOf` in `app.handle`), which
 * measured at about as much CPU as the rest of a task poll: V8 has to give every swapped object a new
 * shape, and Node's HTTP code then meets objects of many shapes. The hot routes (src/http/hot-routes.ts)
 * need no swap at all; a request Express routes is swapped as before. HTTPS and Nest's forced closing
 * of connections keep Nest's own server. Either way, idle connections live KEEP_ALIVE_TIMEOUT_MS, and
 * closing does not wait that long for a connection that was busy when it began.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    if (!options?.httpsOptions && !options?.forceCloseConnections) {
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
    (this.getHttpServer() as Server).keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  }

  /**
   * Node's close() closes the idle connections once; a connection busy at that moment would then stay
   * open for the whole keep-alive timeout after its response, and the process with it. So until the
   * server has closed, connections are closed as soon as they fall idle.
   */
  override close(): Promise<unknown> | undefined {
    const server = this.getHttpServer() as Server | undefined;
    const closing = super.close();
    if (!server || !closing) return closing;
    const sweep = setInterval(() => server.closeIdleConnections(), CLOSING_SWEEP_MS);
    return closing.finally(() => clearInterval(sweep));
  }
}

/** A subclass of `base` whose instances also inherit `prototype` (Express's request or response methods). */
function inheriting<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  class WithExpress extends base {}
  Object.setPrototypeOf(WithExpress.prototype, prototype);
  return WithExpress;
}
