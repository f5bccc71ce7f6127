import { type HttpServer, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { sendJson } from '../common/http/json-reply';

/**
 * Nest's Express adapter answers a route's returned object with Express's `res.json`; here it goes
 * through sendJson instead, the one JSON writer every answer uses (the hot routes and the error
 * bodies too). Anything else (no body, a stream, an Error, a response that already has a
 * Content-Type) is left to the adapter, as before.
 */
export function answerRoutesWithSendJson(adapter: HttpServer): void {
  const reply = adapter.reply.bind(adapter) as (response: Response, body: unknown, statusCode?: number) => unknown;
  adapter.reply = (response: Response, body: unknown, statusCode?: number) => {
    if (
      body === null ||
      typeof body !== 'object' ||
      body instanceof StreamableFile ||
      body instanceof Error ||
      response.hasHeader('content-type')
    ) {
      return reply(response, body, statusCode);
    }
    sendJson(response, statusCode ?? response.statusCode, body);
  };
}
