import { S3Client } from '@aws-sdk/client-s3';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readVideoFacts } from '../src/media/read-video-facts';
import { S3VideoStore } from '../src/storage/s3-video-store';
import { storedVideoSource } from '../src/storage/stored-video-source';
import { startS3Server, TestS3Server } from './support/s3-server';
import { countedSource, growMdat, makeTestVideo } from './support/test-videos';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** The facts of a video in an S3 bucket (a real S3-compatible server on loopback), read by ranged GetObjects. */
describe('the facts of a video stored in S3', () => {
  let s3: TestS3Server;
  let store: S3VideoStore;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'video-facts-s3-'));
    s3 = await startS3Server();
    const client = new S3Client({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      region: s3.env.AWS_REGION,
      credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
    });
    store = new S3VideoStore(client, s3.bucket, 'gw');
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a portrait clip with audio, its size from HeadObject', async () => {
    const made = await makeTestVideo(join(dir, 'portrait.mp4'), { seconds: 3, width: 720, height: 1280, audio: true });
    const written = await store.write('videos/portrait.mp4', createReadStream(made), 'video/mp4');
    const source = await storedVideoSource(store, 'videos/portrait.mp4');
    expect(source.size).toBe(written);
    expect(await readVideoFacts(source)).toEqual({ durationSeconds: 3, width: 720, height: 1280, hasAudio: true });
  });

  it('rejects for a missing object', async () => {
    await expect(storedVideoSource(store, 'videos/none.mp4')).rejects.toThrow();
  });

  it('reads a 1 GiB video (moov at the end) through less than 1 MiB of ranged GetObjects', async () => {
    const made = await makeTestVideo(join(dir, 'made.mp4'), { seconds: 4, width: 1920, height: 1080, audio: false, moovFirst: false });
    // Uploaded as it was made, then grown to 1 GiB in the server's own file (an upload of 1 GiB takes a minute).
    await store.write('videos/big.mp4', createReadStream(made), 'video/mp4');
    await growMdat(made, s3.objectPath('gw/videos/big.mp4'), GiB);
    const source = countedSource(await storedVideoSource(store, 'videos/big.mp4'));
    expect(source.size).toBe(GiB);
    expect(await readVideoFacts(source)).toEqual({ durationSeconds: 4, width: 1920, height: 1080, hasAudio: false });
    expect(source.bytesRead).toBeLessThan(MiB);
    expect(source.reads).toBeLessThan(20);
  });
});
