import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

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

/** The recorded headers, on every response Express routes, in one step. */
export function securityHeaders(headers: SecurityHeaders): RequestHandler {
  const names = headers.set.map(([name]) => name);
  const values = headers.set.map(([, value]) => value);
  const removed = [...headers.removed];
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (let i = 0; i < names.length; i++) res.setHeader(names[i], values[i]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}
