import { publicOnlyLookup } from './public-fetch';

describe('public-only lookup', () => {
  it('refuses a name that resolves to loopback', async () => {
    await expect(publicOnlyLookup('localhost')).rejects.toMatchObject({ code: 'ENOTPUBLIC' });
  });
});
