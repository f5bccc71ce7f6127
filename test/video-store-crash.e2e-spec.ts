import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { alphaChannelBody, FakeAlphaUpstream, finishAfter, startFakeAlphaUpstream } from './support/fake-alpha-upstream';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { startS3Server, TestS3Server } from './support/s3-server';
import { describeEachDatabase, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);

/** The provider forgets everything: its queries and its video links answer 404 from now on. */
function forget(fake: FakeAlphaUpstream): void {
  fake.inject('any', { http: 404 });
  fake.inject('file', { http: 404 });
}

function filesUnder(dir: string, sub = ''): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, sub));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const rel = sub ? `${sub}/${name}` : name;
    return statSync(join(dir, rel)).isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

jest.setTimeout(180_000);

for (const storeKind of ['file', 's3'] as const) {
  describeEachDatabase(`video archiving survives kill -9 (${storeKind})`, (kind) => {
    let database: FreshDatabase;
    let fake: FakeAlphaUpstream;
    let s3: TestS3Server | undefined;
    let gateway: GatewayProcess | undefined;
    const storeDir = mkdtempSync(join(tmpdir(), 'gw-crash-videos-'));

    beforeAll(async () => {
      database = await freshDatabase(kind);
      fake = await startFakeAlphaUpstream();
      fake.videoBytes = SAMPLE;
      if (storeKind === 's3') s3 = await startS3Server();
    });
    afterAll(async () => {
      await gateway?.crash();
      await fake?.close();
      await s3?.close();
      await database?.drop();
    });

    const env = () => ({
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      TASK_SYNC_INTERVAL_MS: '200',
      TASK_LEASE_MS: '3000',
      ...(s3 ? { ...s3.env, VIDEO_STORE: `s3://${s3.bucket}`, VIDEO_STORE_PATH_STYLE: 'true' } : { VIDEO_STORE: `file:${storeDir}` }),
    });
    const call = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${gateway!.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { Authorization: `Bearer ${init.token ?? ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return {
        status: res.status,
        body: res.headers.get('content-type')?.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer()),
      };
    };
    const objects = async () => (s3 ? await s3.keys() : filesUnder(storeDir));

    it('a copy interrupted by kill -9 is finished after a restart: archived, one object, the whole video', async () => {
      gateway = await startGatewayProcess(env());
      const user = await call('/api/admin/users', { method: 'POST', body: { username: 'crash', quota: 1_000_000 } });
      const apiKey = (await call(`/api/admin/users/${user.body.id}/keys`, { method: 'POST', body: { name: 'k' } })).body.key;
      expect((await call('/api/admin/channels', { method: 'POST', body: alphaChannelBody(fake) })).status).toBe(201);

      // The provider's download stalls halfway: the archive is mid-copy when the process dies.
      fake.inject('file', { stallAfter: Math.floor(SAMPLE.length / 2) });
      fake.scriptNext(finishAfter(0));
      const submitted = await call('/v1/videos', { method: 'POST', token: apiKey, body: { model: 'alpha/v5', prompt: 'a storm' } });
      expect(submitted.status).toBe(200);
      const taskId = submitted.body.id as string;
      await until('the archive download to start', async () => (fake.calls('file').length > 0 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await gateway.crash();
      gateway = undefined;
      const [row] = await queryDatabase<{ status: string; archive_status: string }>(
        database,
        `SELECT t.status, a.status AS archive_status FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
      );
      expect(row).toMatchObject({ status: 'SUCCESS', archive_status: 'pending' });
      expect((await objects()).filter((name) => name.startsWith('videos/'))).toEqual([]);
      // The file store's half-written temp file is there, never under the object's key.
      if (!s3) expect(filesUnder(storeDir).filter((name) => name.startsWith('tmp/'))).toHaveLength(1);

      fake.clearFaults();
      gateway = await startGatewayProcess(env());
      await until('the archive', async () => {
        const [state] = await queryDatabase<{ archive_status: string }>(
          database,
          `SELECT a.status AS archive_status FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
        );
        return state.archive_status === 'archived' ? true : undefined;
      });
      const stored = await objects();
      expect(stored.filter((name) => name.startsWith('videos/'))).toHaveLength(1);
      expect(stored.filter((name) => name.startsWith('thumbnails/'))).toHaveLength(1);
      expect(stored).toHaveLength(2); // no temp file, no second copy
      if (!s3)
        expect(
          Buffer.compare(
            readFileSync(
              join(
                storeDir,
                stored.find((name) => name.startsWith('videos/'))!,
              ),
            ),
            SAMPLE,
          ),
        ).toBe(0);

      // Served from the copy even once the provider forgot it.
      forget(fake);
      const content = await call(`/v1/videos/${taskId}/content`, { token: apiKey });
      expect(content.status).toBe(200);
      expect(Buffer.compare(content.body as Buffer, SAMPLE)).toBe(0);
    });
  });
}
