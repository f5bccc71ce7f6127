import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { countedSource, growMdat, makeTestVideo } from '../../test/support/test-videos';
import { readVideoFacts } from '../media/read-video-facts';
import { FileVideoStore } from './file-video-store';
import { storedVideoSource } from './stored-video-source';
import type { VideoStore } from './video-store';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe('a stored video as a ranged source', () => {
  let dir: string;
  let store: FileVideoStore;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stored-video-source-'));
    store = new FileVideoStore(join(dir, 'store'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the object size and reads the ranges asked, short at the end', async () => {
    await store.writeSmall('videos/a.mp4', Buffer.from('0123456789'));
    const source = await storedVideoSource(store, 'videos/a.mp4');
    expect(source.size).toBe(10);
    expect((await source.read(2, 3)).toString()).toBe('234');
    expect((await source.read(8, 64)).toString()).toBe('89');
    expect((await source.read(10, 64)).length).toBe(0);
  });

  it('rejects for a missing object', async () => {
    await expect(storedVideoSource(store, 'videos/none.mp4')).rejects.toThrow(/ENOENT/);
  });

  it('takes no more than asked from a store that answers more than the range', async () => {
    const careless: Pick<VideoStore, 'size' | 'read'> = {
      size: async () => 1000,
      read: async () => Readable.from([Buffer.alloc(300, 1), Buffer.alloc(700, 2)]),
    };
    const source = await storedVideoSource(careless as VideoStore, 'any');
    expect(await source.read(0, 100)).toEqual(Buffer.alloc(100, 1));
  });

  it('reads the facts of a 1 GiB stored video through less than 1 MiB of ranged reads', async () => {
    const key = 'videos/big.mp4';
    const made = await makeTestVideo(join(dir, 'made.mp4'), { seconds: 4, width: 1280, height: 720, audio: true, moovFirst: false });
    mkdirSync(dirname(store.localPath(key)), { recursive: true });
    await growMdat(made, store.localPath(key), GiB);
    const source = countedSource(await storedVideoSource(store, key));
    expect(source.size).toBe(GiB);
    expect(await readVideoFacts(source)).toEqual({ durationSeconds: 4, width: 1280, height: 720, hasAudio: true });
    expect(source.bytesRead).toBeLessThan(MiB);
  });

  it('reads null for stored bytes that are no video', async () => {
    writeFileSync(store.localPath('videos/text.mp4'), 'hello');
    expect(await readVideoFacts(await storedVideoSource(store, 'videos/text.mp4'))).toBeNull();
  });
});
