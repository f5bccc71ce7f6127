import type { HttpService } from '@nestjs/axios';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { FeedRefused } from './feed-document';
import { FEED_MAX_BYTES, FeedReader } from './feed-reader';

describe('FeedReader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feed-'));
  const unusedHttp = {} as HttpService;
  const reader = (mediaAllowPrivateHosts = false) => new FeedReader(unusedHttp, { mediaAllowPrivateHosts } as AppConfig);

  it('reads a file: feed, its ETag a digest of its bytes, so the same bytes again are not modified', async () => {
    writeFileSync(join(dir, 'catalog.json'), '{"version":1,"models":[]}');
    writeFileSync(join(dir, 'catalog.json.sig'), 'c2lnbmF0dXJl\n');
    const first = await reader().read(`file:${dir}/catalog.json`, null);
    expect(first).toEqual({ kind: 'document', bytes: Buffer.from('{"version":1,"models":[]}'), etag: expect.stringMatching(/^"sha256-/) });
    const etag = first.kind === 'document' ? first.etag : null;
    expect(await reader().read(`file://${dir}/catalog.json`, etag)).toEqual({ kind: 'not-modified' });
    writeFileSync(join(dir, 'catalog.json'), '{"version":1,"models":[ ]}');
    expect((await reader().read(`file:${dir}/catalog.json`, etag)).kind).toBe('document');
    expect(await reader().readSignature(`file:${dir}/catalog.json`)).toBe('c2lnbmF0dXJl\n');
  });

  it('refuses a missing file, one over the size bound, and http:// without MEDIA_ALLOW_PRIVATE_HOSTS', async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: Error) => error,
      );
    await expect(refusal(reader().read(`file:${dir}/missing.json`, null))).resolves.toEqual(
      new FeedRefused('the document cannot be read (ENOENT)'),
    );
    writeFileSync(join(dir, 'large.json'), Buffer.alloc(FEED_MAX_BYTES + 1, 32));
    await expect(refusal(reader().read(`file:${dir}/large.json`, null))).resolves.toEqual(
      new FeedRefused(`the document is larger than ${FEED_MAX_BYTES} bytes`),
    );
    await expect(refusal(reader().read('http://feeds.example.com/catalog.json', null))).resolves.toEqual(
      new FeedRefused('CATALOG_FEED_URL must be https:// (http:// only with MEDIA_ALLOW_PRIVATE_HOSTS=true)'),
    );
  });
});
