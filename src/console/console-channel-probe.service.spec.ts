import { HttpService } from '@nestjs/axios';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FamilyRegistry } from '../families/family-registry';
import type { ChannelEntity } from '../upstream/channel.entity';
import type { ChannelsService } from '../upstream/channels.service';
import { UpstreamAdapter, UpstreamError } from '../upstream/upstream-adapter';
import { ConsoleChannelProbeService } from './console-channel-probe.service';

describe('ConsoleChannelProbeService', () => {
  let server: Server;
  let baseUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.statusCode = req.url === '/broken' ? 502 : 404;
      res.end('answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const probeWith = (channel: Partial<ChannelEntity>, adapter?: Partial<UpstreamAdapter>) => {
    const registry = {
      findAdapter: () => (adapter ? ({ platform: 'alpha', ...adapter } as UpstreamAdapter) : null),
    } as unknown as FamilyRegistry;
    const channels = { get: async () => ({ id: 1, platform: 'alpha', apiKey: 'secret', ...channel }) } as unknown as ChannelsService;
    return new ConsoleChannelProbeService(channels, registry, new HttpService()).test(1);
  };

  it('falls back to a plain request when the family has no probe: any answer below 500 means reachable', async () => {
    expect(await probeWith({ baseUrl })).toEqual({ ok: true, method: 'reachability', latency_ms: expect.any(Number), http_status: 404 });
    expect(seen).toContain('GET /');
    expect(await probeWith({ baseUrl: `${baseUrl}/broken` })).toMatchObject({ ok: false, http_status: 502, error: 'HTTP 502' });
  });

  it('reports a refused connection', async () => {
    const result = await probeWith({ baseUrl: 'http://127.0.0.1:9' });
    expect(result).toMatchObject({ ok: false, method: 'reachability', error: expect.stringContaining('ECONNREFUSED') });
  });

  it("uses the adapter's probe when there is one, and reports its error kind", async () => {
    expect(await probeWith({ baseUrl }, { probe: async () => undefined })).toEqual({
      ok: true,
      method: 'probe',
      latency_ms: expect.any(Number),
    });
    const failed = await probeWith({ baseUrl }, { probe: async () => Promise.reject(new UpstreamError('channel', 'invalid API-KEY')) });
    expect(failed).toMatchObject({ ok: false, method: 'probe', error: 'channel: invalid API-KEY' });
  });
});
