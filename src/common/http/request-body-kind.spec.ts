import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import typeIs from 'type-is';
import { hasJsonBody, isMultipart } from './request-body-kind';

/** A request with these headers, as Node makes it. */
function requestWith(headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return req;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/json; charset=utf-16',
  'application/json;charset',
  'application/jsonp',
  'application/json-patch+json',
  'application/vnd.api+json',
  'text/json',
  'multipart/form-data; boundary=x',
  'Multipart/Form-Data; boundary=x',
  'multipart/form-data',
  'application/x-www-form-urlencoded',
  'text/plain',
  '',
];

describe('the body checks the hot routes and the submit controllers make', () => {
  it.each(CONTENT_TYPES)('hasJsonBody and isMultipart agree with type-is for %j', (type) => {
    const req = requestWith({ 'content-type': type, 'content-length': '2' });
    expect(hasJsonBody(req)).toBe(typeIs.is(type, ['application/json']) !== false);
    expect(isMultipart(req)).toBe(Boolean(typeIs(req, ['multipart/form-data'])));
  });

  it('takes no request without a body for JSON or multipart', () => {
    const req = requestWith({ 'content-type': 'application/json' });
    expect(hasJsonBody(req)).toBe(false);
    expect(isMultipart(requestWith({ 'content-type': 'multipart/form-data; boundary=x' }))).toBe(false);
    expect(isMultipart(requestWith({}))).toBe(false);
  });
});
