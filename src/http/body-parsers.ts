import express, { type RequestHandler } from 'express';
import { rejectDeepJson } from '../common/http/json-depth';

/** Video submits may carry data-URI images: 20 MB (what body-parser reads `20mb` as). */
export const VIDEO_BODY_LIMIT_BYTES = 20 * 1024 * 1024;
export const DEFAULT_BODY_LIMIT = '1mb';

/** The JSON parser of the video submit routes, with its `verify` (the lean read of the hot routes calls it too). */
export function videoSubmitJsonParser(verify = rejectDeepJson()): RequestHandler {
  return express.json({ limit: VIDEO_BODY_LIMIT_BYTES, verify });
}
