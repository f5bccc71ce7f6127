import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import typeIs from 'type-is';
import { rejectDeepJson } from '../common/http/json-depth';

/** Video submits may carry data-URI images: 20 MB (what body-parser reads `20mb` as). */
export const VIDEO_BODY_LIMIT_BYTES = 20 * 1024 * 1024;
export const DEFAULT_BODY_LIMIT = '1mb';

/** The JSON parser of the video submit routes, with its `verify` (the lean read of the hot routes calls it too). */
export function videoSubmitJsonParser(verify = rejectDeepJson()): RequestHandler {
  return express.json({ limit: VIDEO_BODY_LIMIT_BYTES, verify });
}

/** As body-parser decides it (type-is's hasBody): a body is announced by Transfer-Encoding or Content-Length. */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !isNaN(Number(req.headers['content-length']));
}

/** A request with a body that the JSON parser reads (`Content-Type: application/json`, any parameters). */
export function hasJsonBody(req: IncomingMessage): boolean {
  return hasBody(req) && typeIs.is(req.headers['content-type'] ?? '', ['application/json']) !== false;
}

/**
 * `req.is('multipart/form-data')` as a yes or no, without type-is's parse for the JSON bodies
 * (nearly every submit): a Content-Type that starts `application/json` is no multipart.
 */
export function isMultipart(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || type.startsWith('application/json')) return false;
  return Boolean(typeIs(req, ['multipart/form-data']));
}
