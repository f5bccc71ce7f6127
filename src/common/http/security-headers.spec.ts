import type { Request, Response } from 'express';
import helmet from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { recordSecurityHeaders, securityHeaders } from './security-headers';

const OPTIONS = {
  crossOriginEmbedderPolicy: false,
  contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } },
};

function response(): ServerResponse {
  const res = new ServerResponse(new IncomingMessage(null as never));
  res.sendDate = false;
  return res;
}

/** The head Node writes of a response: every header, its spelling, order and value. */
function head(res: ServerResponse): string {
  res.writeHead(200);
  return (res as unknown as { _header: string })._header;
}

describe('securityHeaders', () => {
  it.each([
    ['after other headers', (res: ServerResponse) => res.setHeader('x-request-id', 'abc')],
    ['as the first headers', () => undefined],
    ['over a header helmet sets', (res: ServerResponse) => res.setHeader('x-frame-options', 'SAMEORIGIN')],
  ])('gives the very head helmet gives, %s', (_name, before) => {
    const viaHelmet = response();
    const replayed = response();
    for (const res of [viaHelmet, replayed]) {
      before(res);
      res.setHeader('X-Powered-By', 'x');
    }
    let called = 0;
    helmet(OPTIONS)({} as Request, viaHelmet, () => called++);
    securityHeaders(recordSecurityHeaders(OPTIONS))({} as Request, replayed as unknown as Response, () => called++);
    expect(called).toBe(2);
    expect(replayed.getHeaders()).toEqual(viaHelmet.getHeaders());
    replayed.appendHeader('x-frame-options', 'more');
    viaHelmet.appendHeader('x-frame-options', 'more');
    expect(head(replayed)).toBe(head(viaHelmet));
  });

  it('throws as setHeader does once the headers are sent', () => {
    const res = response();
    res.writeHead(200);
    expect(() => securityHeaders(recordSecurityHeaders(OPTIONS))({} as Request, res as unknown as Response, () => undefined)).toThrow(
      expect.objectContaining({ code: 'ERR_HTTP_HEADERS_SENT' }),
    );
  });
});
