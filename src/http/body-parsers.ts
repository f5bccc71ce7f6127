import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import typeIs from 'type-is';
import { rejectDeepJson } from '../common/json-depth';
import type { BodyMemoryBudget } from './body-memory-budget';

/** Video submits may carry data-URI images. */
export const VIDEO_BODY_LIMIT = '20mb';
export const DEFAULT_BODY_LIMIT = '1mb';

/** The JSON parser of the video submit routes (Express's chain and the fast lane use one each, alike). */
export const videoSubmitJsonParser = (): RequestHandler => express.json({ limit: VIDEO_BODY_LIMIT, verify: rejectDeepJson() });

/** As body-parser decides it (type-is's hasBody): a body is announced by Transfer-Encoding or Content-Length. */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !isNaN(Number(req.headers['content-length']));
}

/** A request with a body that the JSON parser reads (`Content-Type: application/json`, any parameters). */
export function hasJsonBody(req: IncomingMessage): boolean {
  return hasBody(req) && typeIs.is(req.headers['content-type'] ?? '', ['application/json']) !== false;
}

/**
 * Runs an Express body parser on a plain request, within the process's body memory budget: the body,
 * or the budget's or the parser's error (the filter maps it to 400, 413, 415 or 503).
 */
export function parseBody(parser: RequestHandler, budget: BodyMemoryBudget, req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const request = req as express.Request;
  budget.admit(req, res);
  return new Promise((resolve, reject) => parser(request, res as express.Response, (error?: unknown) => (error ? reject(error) : resolve(request.body))));
}
