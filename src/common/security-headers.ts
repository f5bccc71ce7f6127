import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's response headers, worked out once. With fixed options (no per-request directives such as
 * nonces) helmet sets the same headers on every response, through a dozen small middlewares; here
 * one run of helmet is recorded and replayed in one step.
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let failure: unknown;
  helmet(options)({} as Request, recorder as unknown as Response, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
