import { isThisGatewaysSimulator, pointsAtThisGateway } from './this-gateway-url';

describe('pointsAtThisGateway', () => {
  const own = { publicBaseUrl: 'https://gw.example.com', listeningPort: 3000 };
  /** Names as /etc/hosts or DNS could give them; any other name does not resolve. */
  const names: Record<string, string[]> = {
    'gw-alias': ['127.0.0.1'],
    'gw-alias6.example': ['::1'],
    'anywhere.example': ['0.0.0.0'],
    'both.example': ['203.0.113.7', '127.0.1.1'],
    'public.example': ['203.0.113.7'],
  };
  const resolve = (hostname: string) =>
    hostname in names ? Promise.resolve(names[hostname]) : Promise.reject(new Error(`ENOTFOUND ${hostname}`));
  const points = (url: string) => pointsAtThisGateway(url, own, resolve);

  it('finds PUBLIC_BASE_URL and the listening port on any loopback address', async () => {
    for (const url of [
      'https://gw.example.com/v1',
      'https://GW.example.com:443/v1',
      'http://localhost:3000/v1',
      'http://localhost.:3000/v1',
      'http://127.0.0.1:3000',
      'http://127.1.2.3:3000/v1',
      'http://[::1]:3000/v1',
      'http://[::ffff:127.0.0.1]:3000/v1',
      'http://0.0.0.0:3000/v1',
    ]) {
      expect([url, await points(url)]).toEqual([url, true]);
    }
  });

  it('finds names that resolve to loopback (or to the unspecified address) on the listening port', async () => {
    for (const url of [
      'http://gw-alias:3000/v1',
      'http://GW-ALIAS:3000/v1',
      'https://gw-alias6.example:3000/v1',
      'http://anywhere.example:3000',
      'http://both.example:3000/v1',
    ]) {
      expect([url, await points(url)]).toEqual([url, true]);
    }
  });

  it('lets through other gateways, other ports, public and unresolvable names, and the embedded simulator', async () => {
    for (const url of [
      'https://gw2.example.com/v1',
      'http://gw.example.com/v1',
      'http://127.0.0.1:3001/v1',
      'http://gw-alias:3001/v1',
      'http://10.0.0.5:3000/v1',
      'http://public.example:3000/v1',
      'http://nowhere.example:3000/v1',
      'https://gw.example.com/simulator/openai',
      'http://localhost:3000/simulator/alpha',
      'http://gw-alias:3000/simulator/alpha',
      'not a url',
    ]) {
      expect([url, await points(url)]).toEqual([url, false]);
    }
  });
});

describe('isThisGatewaysSimulator', () => {
  const own = { publicBaseUrl: 'https://gw.example.com', listeningPort: 3000 };
  const resolve = (hostname: string) => Promise.reject(new Error(`ENOTFOUND ${hostname}`));

  it('is a /simulator path on this gateway: its public origin or its port on loopback', async () => {
    for (const url of [
      'http://127.0.0.1:3000/simulator/fal',
      'http://localhost:3000/simulator/gamma-control',
      'https://gw.example.com/simulator/kling',
    ]) {
      expect([url, await isThisGatewaysSimulator(url, own, resolve)]).toEqual([url, true]);
    }
  });

  it('is not another path of this gateway, nor a simulator path on another port or host', async () => {
    for (const url of ['http://127.0.0.1:3000/v1', 'http://127.0.0.1:3001/simulator/fal', 'http://10.0.0.7/simulator/fal', 'not a url']) {
      expect([url, await isThisGatewaysSimulator(url, own, resolve)]).toEqual([url, false]);
    }
  });
});
