import { ConfigError, loadConfig } from '../config/app-config';

describe('the video store configuration', () => {
  it('defaults to the file store under data/videos, path-style off, links valid a day', () => {
    const config = loadConfig({});
    expect(config.videoStore).toEqual({ kind: 'file', dir: 'data/videos' });
    expect(config.videoStorePathStyle).toBe(false);
    expect(config.videoUrlTtlSeconds).toBe(86_400);
  });

  it('takes file:, s3:// with or without a prefix, and none', () => {
    expect(loadConfig({ VIDEO_STORE: 'file:/var/videos' }).videoStore).toEqual({ kind: 'file', dir: '/var/videos' });
    expect(loadConfig({ VIDEO_STORE: 's3://my-bucket' }).videoStore).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '' });
    expect(loadConfig({ VIDEO_STORE: 's3://my-bucket/gw/videos/' }).videoStore).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'gw/videos',
    });
    expect(loadConfig({ VIDEO_STORE: 'none' }).videoStore).toEqual({ kind: 'none' });
    expect(loadConfig({ VIDEO_STORE_PATH_STYLE: 'true', VIDEO_URL_TTL_S: '60' })).toMatchObject({
      videoStorePathStyle: true,
      videoUrlTtlSeconds: 60,
    });
  });

  it.each([
    [{ VIDEO_STORE: 'ftp://x' }, 'VIDEO_STORE: must be file:<dir>, s3://<bucket>[/<prefix>] or none'],
    [{ VIDEO_STORE: 'file:' }, 'VIDEO_STORE: file: needs a directory'],
    [{ VIDEO_STORE: 's3://' }, 'VIDEO_STORE: must be'],
    [{ VIDEO_STORE_PATH_STYLE: 'maybe' }, 'VIDEO_STORE_PATH_STYLE: VIDEO_STORE_PATH_STYLE must be true or false'],
    [{ VIDEO_URL_TTL_S: '0' }, 'VIDEO_URL_TTL_S: must be an integer from 1 to 31536000'],
    [{ VIDEO_URL_TTL_S: 'day' }, 'VIDEO_URL_TTL_S: must be an integer'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
