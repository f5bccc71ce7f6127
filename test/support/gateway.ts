import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { ConfigureOptions, configureApp } from '../../src/bootstrap';
import { Clock } from '../../src/common/runtime/clock';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import type { FamilyDefinition } from '../../src/families/family';
import { FAMILIES, FAMILY_DEFINITIONS } from '../../src/families/family-registry';
import { GatewayExpressAdapter } from '../../src/http/gateway-express-adapter';
import { DemoCredentials, SimulatorSeeder } from '../../src/simulator/simulator-seeder.service';
import { AdminTokenService } from '../../src/auth/admin-token.service';
import { TaskSyncService } from '../../src/tasks/task-sync.service';
import { VideoArchiveJob } from '../../src/storage/video-archive.job';
import { DatabaseKind, FreshDatabase, freshDatabase } from './test-databases';
import { TestClock } from './test-clock';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestGateway {
  app: INestApplication;
  url: string;
  config: AppConfig;
  clock: TestClock;
  database: FreshDatabase;
  http: ReturnType<typeof request>;
  /** supertest with the admin bearer token set. */
  admin: {
    get(path: string): request.Test;
    post(path: string, body?: object): request.Test;
    patch(path: string, body?: object): request.Test;
    put(path: string, body?: object): request.Test;
    delete(path: string): request.Test;
  };
  /** Creates a user with `quota` and an API key; returns ids and the plain key. */
  createCustomer(options?: {
    quota?: number;
    group?: string;
    models?: string[];
    username?: string;
  }): Promise<{ userId: number; key: string; keyId: number }>;
  createChannel(body: Record<string, unknown>): Promise<number>;
  balance(userId: number): Promise<{ quota: number; used_quota: number }>;
  /** The one-time secrets this start made (main.ts prints them in the start-up banner). */
  credentials: { adminToken: string | null; demo: DemoCredentials | null };
  /** One task-sync round, as the scheduler would run it, then one archive round (a finished task completes once stored and settled). */
  sync(): Promise<number>;
  /** One task-sync round alone: a task the provider finished stays in progress for its customer, its video not stored yet. */
  syncTasksOnly(): Promise<number>;
  close(): Promise<void>;
}

let userCounter = 0;

/**
 * Boots the real AppModule on a fresh database, listening on a loopback port.
 * Defaults for tests: simulator off, background jobs off (tests call `sync()`), private hosts allowed.
 */
export async function startGateway(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  existing?: FreshDatabase,
  options: ConfigureOptions & {
    /** Families registered after the production ones, as FamiliesModule registers its own (one definition and its module each). */
    extraFamilies?: readonly FamilyDefinition[];
  } = {},
): Promise<TestGateway> {
  const { extraFamilies = [], ...configureOptions } = options;
  const database = existing ?? (await freshDatabase(kind));
  const config = loadConfig({
    DATABASE_URL: database.url,
    ADMIN_TOKEN,
    SIMULATOR: 'off',
    TASK_SYNC_INTERVAL_MS: '0',
    ASSET_FOLLOW_UP_INTERVAL_MS: '0',
    MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
    LOG_LEVEL: 'silent',
    PORT: '0',
    // Each gateway its own video store, never the checkout's data/videos.
    VIDEO_STORE: `file:${mkdtempSync(join(tmpdir(), 'gw-videos-'))}`,
    ...env,
  });
  const clock = new TestClock();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config), ...extraFamilies.map((family) => family.module)],
  })
    .overrideProvider(FAMILY_DEFINITIONS)
    .useValue([...FAMILIES, ...extraFamilies])
    .overrideProvider(Clock)
    .useValue(clock)
    .setLogger(process.env.TEST_LOGS ? console : { log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} })
    .compile();
  const app = moduleRef.createNestApplication(new GatewayExpressAdapter(), { bodyParser: false });
  configureApp(app, config, configureOptions);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let demo: DemoCredentials | null = null;
  // Signed links point at this very gateway unless the test fixed PUBLIC_BASE_URL.
  if (config.simulator || !env.PUBLIC_BASE_URL) config.publicBaseUrl = url;
  if (config.simulator) {
    demo = (await app.get(SimulatorSeeder).seed(port)).demo;
  }
  const credentials = { adminToken: app.get(AdminTokenService).takeGeneratedToken(), demo };
  const http = request(url);
  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${ADMIN_TOKEN}`);
  const admin = {
    get: (path: string) => auth(http.get(path)),
    post: (path: string, body?: object) => auth(http.post(path)).send(body ?? {}),
    patch: (path: string, body?: object) => auth(http.patch(path)).send(body ?? {}),
    put: (path: string, body?: object) => auth(http.put(path)).send(body ?? {}),
    delete: (path: string) => auth(http.delete(path)),
  };
  const gateway: TestGateway = {
    app,
    url,
    config,
    clock,
    database,
    http,
    admin,
    credentials,
    async createCustomer(options = {}) {
      const username = options.username ?? `user${process.pid}_${++userCounter}`;
      const user = await admin.post('/api/admin/users', { username, group: options.group, quota: options.quota ?? 0 }).expect(201);
      const key = await admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'test', models: options.models }).expect(201);
      return { userId: user.body.id, key: key.body.key, keyId: key.body.id };
    },
    async createChannel(body) {
      const res = await admin.post('/api/admin/channels', body);
      if (res.status !== 201) throw new Error(`channel creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id;
    },
    async balance(userId) {
      const res = await admin.get(`/api/admin/users/${userId}`).expect(200);
      return { quota: res.body.quota, used_quota: res.body.used_quota };
    },
    async sync() {
      const synced = await app.get(TaskSyncService).syncDueTasks();
      // A task the provider finished completes for its customer once its video is stored and settled.
      await app.get(VideoArchiveJob).archiveDueVideos();
      return synced;
    },
    syncTasksOnly: () => app.get(TaskSyncService).syncDueTasks(),
    async close() {
      await app.close();
      if (!existing) await database.drop();
    },
  };
  return gateway;
}
