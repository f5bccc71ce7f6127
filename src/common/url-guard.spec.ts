import { assertPublicHttpUrl, isPublicAddress } from './url-guard';

describe('url guard', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', '0.0.0.0', '::ffff:127.0.0.1', '100.64.0.1'])(
    'refuses %s',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );

  it.each(['8.8.8.8', '2606:4700::1111'])('accepts %s', (address) => expect(isPublicAddress(address)).toBe(true));

  it('names the field when a URL points at loopback', async () => {
    await expect(assertPublicHttpUrl('http://127.0.0.1/x.png', 'image', false)).rejects.toMatchObject({ options: { param: 'image' } });
    await expect(assertPublicHttpUrl('http://localhost/x.png', 'image', false)).rejects.toThrow(/image must point to a public host/);
  });

  it('refuses non-http schemes even when private hosts are allowed', async () => {
    await expect(assertPublicHttpUrl('file:///etc/passwd', 'url', true)).rejects.toThrow(/url must be an http\(s\) URL/);
    await expect(assertPublicHttpUrl('http://127.0.0.1/x', 'url', true)).resolves.toBeInstanceOf(URL);
  });
});
