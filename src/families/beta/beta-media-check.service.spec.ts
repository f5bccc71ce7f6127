import { HttpService } from '@nestjs/axios';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../config/app-config';
import type { MediaToCheck } from './beta-body.parser';
import { BetaMediaCheckService } from './beta-media-check.service';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64)]);

/**
 * The ranged read connects through a lookup that refuses private addresses, so a name that
 * passed the URL check but resolves privately at connect time (DNS rebinding) is refused too.
 * `localhost` stands in for such a name: the probe is called past the URL check.
 */
describe('family B media probe', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://localhost:${(server.address() as AddressInfo).port}/a.png`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const probe = (allowPrivate: boolean, publicBaseUrl = 'https://gateway.example.com') => {
    const service = new BetaMediaCheckService(new HttpService(), { mediaAllowPrivateHosts: allowPrivate, publicBaseUrl } as AppConfig);
    const element: MediaToCheck = { type: 'reference_image', url, field: 'metadata.input.media[0].url' };
    return (service as unknown as { probe(element: MediaToCheck): Promise<void> }).probe(element);
  };

  it('refuses a host that resolves to a private address when the connection is made', async () => {
    await expect(probe(false)).rejects.toMatchObject({
      message:
        'metadata.input.media[0].url must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)',
      options: { param: 'metadata.input.media[0].url' },
    });
  });

  it("reads it when it is the gateway's own PUBLIC_BASE_URL host (its sample media)", async () => {
    await expect(probe(false, new URL(url).origin)).resolves.toBeUndefined();
  });

  it('reads it with MEDIA_ALLOW_PRIVATE_HOSTS=true', async () => {
    await expect(probe(true)).resolves.toBeUndefined();
  });
});
