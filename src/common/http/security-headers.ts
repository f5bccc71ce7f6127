import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';

/** The headers helmet sets (and removes) on every response, worked out once. */
export interface SecurityHeaders {
  set: ReadonlyArray<readonly [string, string]>;
  removed: readonly string[];
}

/**
 * With fixed options (no per-request directives such as nonces) helmet sets the same headers on every
 * response, through a dozen small middlewares: one run of helmet is recorded here, and replayed.
 */
export function recordSecurityHeaders(options: HelmetOptions): SecurityHeaders {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let failure: unknown;
  helmet(options)({} as Request, recorder as unknown as Response, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return { set, removed };
}

/** A response's header store as Node keeps it: lower-case name to `[name, value]` (null until a first header). */
type HeaderStore = Record<string, [string, string]> | null;

/**
 * The recorded headers, on every response Express routes, in one step.
 *
 * `setHeader` checks a header's name and value against the HTTP token and field-value rules on every
 * call (a regular expression over the 300-character Content-Security-Policy among them): a tenth of
 * the cost of a task poll's middlewares went to checking the same twelve constants. They are checked
 * once here, by `setHeader` itself on a probe response, and then written into the response's header
 * store as setHeader writes them (Node's own `kOutHeaders` entries). That store is found on a probe
 * and the result compared with setHeader's (the headers, and the head Node writes of them); should a Node version
 * keep its headers otherwise, every response goes through setHeader as before.
 */
export function securityHeaders(headers: SecurityHeaders): RequestHandler {
  const names = headers.set.map(([name]) => name);
  const values = headers.set.map(([, value]) => value);
  const keys = names.map((name) => name.toLowerCase());
  const removed = [...headers.removed];
  const store = headerStoreOf(names, values);
  if (store === undefined) {
    return (_req: Request, res: Response, next: NextFunction): void => {
      for (let i = 0; i < names.length; i++) res.setHeader(names[i], values[i]);
      for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
      next();
    };
  }
  return (_req: Request, res: Response, next: NextFunction): void => {
    const response = res as unknown as Record<symbol, HeaderStore>;
    // Once the head is sent setHeader throws (ERR_HTTP_HEADERS_SENT): left to it.
    if ((res as unknown as { _header: string | null })._header) {
      for (let i = 0; i < names.length; i++) res.setHeader(names[i], values[i]);
    } else {
      let outHeaders = response[store];
      if (outHeaders === null) outHeaders = response[store] = Object.create(null) as Record<string, [string, string]>;
      // A fresh entry each time, as setHeader makes (appendHeader changes an entry in place).
      for (let i = 0; i < keys.length; i++) outHeaders[keys[i]] = [names[i], values[i]];
    }
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}

/**
 * The symbol under which Node keeps a response's headers, when writing `names`/`values` there gives
 * exactly what setHeader gives (checked on probe responses, which also checks every name and value as
 * setHeader would, throwing as it would); undefined otherwise.
 */
function headerStoreOf(names: string[], values: string[]): symbol | undefined {
  const probe = () => new ServerResponse(new IncomingMessage(null as never));
  const viaSetHeader = probe();
  viaSetHeader.setHeader('x-earlier', 'kept');
  for (let i = 0; i < names.length; i++) viaSetHeader.setHeader(names[i], values[i]);
  const symbol = Object.getOwnPropertySymbols(viaSetHeader).find((s) => s.description === 'kOutHeaders');
  if (!symbol) return undefined;
  const direct = probe();
  const store = () => (direct as unknown as Record<symbol, HeaderStore>)[symbol];
  if (store() !== null) return undefined;
  direct.setHeader('x-earlier', 'kept');
  const outHeaders = store();
  if (!outHeaders || typeof outHeaders !== 'object') return undefined;
  for (let i = 0; i < names.length; i++) outHeaders[names[i].toLowerCase()] = [names[i], values[i]];
  // The head Node would send of each (no Date, which could change between the two).
  const head = (res: ServerResponse) => {
    res.sendDate = false;
    res.writeHead(200);
    return (res as unknown as { _header: string })._header;
  };
  const same = JSON.stringify(direct.getHeaders()) === JSON.stringify(viaSetHeader.getHeaders()) && head(direct) === head(viaSetHeader);
  return same ? symbol : undefined;
}
