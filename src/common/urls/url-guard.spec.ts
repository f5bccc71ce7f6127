import { assertPublicHttpUrl, isPublicAddress, isShowableLink } from './url-guard';

describe('url guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '::1',
    'fe80::1',
    '0.0.0.0',
    '::ffff:127.0.0.1',
    '100.64.0.1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '2606:4700::1111'])('accepts %s', (address) => expect(isPublicAddress(address)).toBe(true));

  // Every IPv6 form that embeds an IPv4 address is judged by that address; tunnels that cannot be judged are refused.
  it.each([
    ['::127.0.0.1', 'IPv4-compatible, dotted'],
    ['::7f00:1', 'IPv4-compatible, as the URL parser writes [::127.0.0.1]'],
    ['::a9fe:a9fe', 'IPv4-compatible link-local'],
    ['::ffff:10.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped, hex'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145)'],
    ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
    ['64:ff9b:1::808:808', 'NAT64 local-use prefix'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:a00:1::', '6to4 of 10.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['::', 'unspecified'],
  ])('refuses %s (%s)', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['::808:808', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])('accepts %s (embeds a public IPv4)', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('refuses [::127.0.0.1] and friends in URLs', async () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:a9fe:a9fe::]/',
      'http://0x7f.1/',
      'http://2130706433/',
    ]) {
      await expect(assertPublicHttpUrl(url, 'url', false)).rejects.toMatchObject({ options: { param: 'url' } });
    }
  });

  it('shows only http(s) links without credentials, never special addresses, private ones only when allowed or trusted', () => {
    const strict = { allowPrivate: false, trustedHosts: ['127.0.0.1:8080'] };
    for (const link of [
      'file:///etc/passwd',
      'ftp://cdn.example.com/v.mp4',
      'javascript:alert(1)',
      'https://u:p@cdn.example.com/v',
      'http://169.254.169.254/',
      'http://[::a9fe:a9fe]/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'not a url',
    ]) {
      expect(isShowableLink(link)).toBe(false);
      expect(isShowableLink(link, strict)).toBe(false);
    }
    for (const link of [
      'http://10.0.0.1/v',
      'http://127.0.0.1:9/v',
      'http://[::1]/v',
      'http://localhost/v',
      'http://metadata.google.internal/v',
      'http://intranet/v',
    ]) {
      expect(isShowableLink(link)).toBe(true);
      expect(isShowableLink(link, strict)).toBe(false);
    }
    expect(isShowableLink('http://127.0.0.1:8080/files/1.mp4', strict)).toBe(true);
    expect(isShowableLink('https://cdn.example.com/v.mp4?sig=1', strict)).toBe(true);
    expect(isShowableLink('https://[2606:4700::1111]/v.mp4', strict)).toBe(true);
  });

  it('names the field when a URL points at loopback', async () => {
    await expect(assertPublicHttpUrl('http://127.0.0.1/x.png', 'image', false)).rejects.toMatchObject({ options: { param: 'image' } });
    await expect(assertPublicHttpUrl('http://localhost/x.png', 'image', false)).rejects.toThrow(/image must point to a public host/);
  });

  it('refuses non-http schemes even when private hosts are allowed', async () => {
    await expect(assertPublicHttpUrl('file:///etc/passwd', 'url', true)).rejects.toThrow(/url must be an http\(s\) URL/);
    await expect(assertPublicHttpUrl('http://127.0.0.1/x', 'url', true)).resolves.toBeInstanceOf(URL);
  });
});
