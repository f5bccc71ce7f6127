import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import { requestLogging } from './request-logging.middleware';

/** The log line of one request to `path`, answered 200. */
function loggedLine(path: string): Record<string, unknown> {
  const lines: string[] = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(line) });
  const req = { path, method: 'POST', headers: {} } as unknown as Request;
  const res = Object.assign(new EventEmitter(), { req, statusCode: 200, setHeader: () => undefined }) as unknown as Response;
  requestLogging(logger)(req, res, (() => undefined) as NextFunction);
  res.emit('finish');
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

describe('the request log', () => {
  it("keeps a provider callback's token out of the log (the token is the callback's credential)", () => {
    const line = loggedLine('/v1/provider-callbacks/kling/task_abc.SECRETMAC0123456789');
    expect(line.path).toBe('/v1/provider-callbacks/kling/***');
    expect(JSON.stringify(line)).not.toContain('SECRETMAC');
  });

  it('logs other paths as they are', () => {
    expect(loggedLine('/v1/videos/task_abc').path).toBe('/v1/videos/task_abc');
  });
});
