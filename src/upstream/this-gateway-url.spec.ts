import { pointsAtThisGateway } from './this-gateway-url';

describe('pointsAtThisGateway', () => {
  const own = { publicBaseUrl: 'https://gw.example.com', listeningPort: 3000 };

  it('finds PUBLIC_BASE_URL and the listening port on any loopback address', () => {
    for (const url of [
      'https://gw.example.com/v1',
      'https://GW.example.com:443/v1',
      'http://localhost:3000/v1',
      'http://127.0.0.1:3000',
      'http://127.1.2.3:3000/v1',
      'http://[::1]:3000/v1',
      'http://[::ffff:127.0.0.1]:3000/v1',
      'http://0.0.0.0:3000/v1',
    ]) {
      expect([url, pointsAtThisGateway(url, own)]).toEqual([url, true]);
    }
  });

  it('lets through other gateways, other ports, and the embedded simulator', () => {
    for (const url of [
      'https://gw2.example.com/v1',
      'http://gw.example.com/v1',
      'http://127.0.0.1:3001/v1',
      'http://10.0.0.5:3000/v1',
      'https://gw.example.com/simulator/openai',
      'http://localhost:3000/simulator/alpha',
      'not a url',
    ]) {
      expect([url, pointsAtThisGateway(url, own)]).toEqual([url, false]);
    }
  });
});
