import { HttpService } from '@nestjs/axios';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callBearerJson, probeWithUnknownTask, succeededVideoUrl, upstreamTaskIdOf } from './bearer-json-task-api';
import type { ChannelEntity } from './channel.entity';
import { UpstreamError } from './upstream-adapter';

describe('Bearer JSON task API helpers', () => {
  let server: Server;
  let channel: ChannelEntity;
  const seen: IncomingHttpHeaders[] = [];
  const http = new HttpService();

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === '/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      if (req.url === '/busy')
        return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end('{"code":"Throttling"}');
      if (req.url === '/broken') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>bad gateway</h1>');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"t1"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    channel = { apiKey: 'sk-secret', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } as ChannelEntity;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const mapError = (status: number, body: object | undefined, retryAfter: unknown) =>
    new UpstreamError('backpressure', `${status} ${JSON.stringify(body)} ${String(retryAfter)}`);
  const call = (path: string, method: 'GET' | 'POST' = 'GET', target = channel) =>
    callBearerJson(
      http,
      target,
      { method, path, timeout: 2000, body: method === 'POST' ? { a: 1 } : undefined, postHeaders: { 'X-Async': 'enable' } },
      'family X',
      mapError,
    );

  it('sends Bearer JSON, the protocol headers on a POST only, and returns the JSON answer', async () => {
    expect((await call('/tasks', 'POST')).data).toEqual({ id: 't1' });
    expect(seen.at(-1)).toMatchObject({
      authorization: 'Bearer sk-secret',
      accept: 'application/json',
      'content-type': 'application/json',
      'x-async': 'enable',
    });
    await call('/tasks/t1');
    expect(seen.at(-1)).not.toHaveProperty('x-async');
    expect(seen.at(-1)).not.toHaveProperty('content-type');
  });

  it('hands a non-2xx answer to the family mapper with its JSON body (if any) and Retry-After', async () => {
    await expect(call('/busy')).rejects.toMatchObject({ kind: 'backpressure', message: '429 {"code":"Throttling"} 7' });
    await expect(call('/broken')).rejects.toMatchObject({ message: '502 undefined undefined' });
  });

  it('treats a 2xx that is not JSON and transport trouble as transient, without the key in the message', async () => {
    await expect(call('/text')).rejects.toMatchObject({ kind: 'transient', message: 'the provider answered with a body that is not JSON' });
    const refused = call('/tasks', 'GET', { ...channel, baseUrl: 'http://127.0.0.1:9' });
    await expect(refused).rejects.toMatchObject({ kind: 'transient', message: 'family X provider unreachable (ECONNREFUSED)' });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining('sk-secret') });
  });

  it('needs an upstream task id to query, and reads a video URL only from a success', () => {
    expect(upstreamTaskIdOf({ taskId: 'task_1', upstreamTaskId: 'u1' })).toBe('u1');
    expect(() => upstreamTaskIdOf({ taskId: 'task_1', upstreamTaskId: null })).toThrow(
      expect.objectContaining({ kind: 'channel', message: 'task task_1 has no upstream task id' }),
    );
    expect(succeededVideoUrl({ state: 'succeeded', videoUrl: 'https://v/1.mp4', raw: {} })).toBe('https://v/1.mp4');
    expect(succeededVideoUrl({ state: 'succeeded', raw: {} })).toBeNull();
    expect(succeededVideoUrl({ state: 'running', videoUrl: 'https://v/1.mp4', raw: {} })).toBeNull();
  });

  it('counts a refused or throttled probe id as a working key, and rethrows channel and transport trouble', async () => {
    await expect(probeWithUnknownTask(() => Promise.reject(new UpstreamError('invalid_input', 'no such task')))).resolves.toBeUndefined();
    await expect(probeWithUnknownTask(() => Promise.reject(new UpstreamError('backpressure', 'slow down')))).resolves.toBeUndefined();
    await expect(probeWithUnknownTask(() => Promise.reject(new UpstreamError('channel', 'bad key')))).rejects.toMatchObject({
      kind: 'channel',
    });
    await expect(probeWithUnknownTask(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
