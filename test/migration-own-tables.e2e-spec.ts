import { readFileSync } from 'node:fs';
import { newDataSource } from '../src/database/sqlite-data-source';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { MIGRATIONS } from '../src/database/migrations';
import { OwnTables1764600000300 } from '../src/database/migrations/1764600000300-own-tables';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { VideoObjectKeys } from '../src/storage/video-object-keys';
import { VIDEO_STORE, type VideoStore } from '../src/storage/video-store';
import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { WebhookEventPublisher } from '../src/webhooks/webhook-event-publisher';
import { binaryBody } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';
import { until } from './support/until';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);
const POSTER = Buffer.from('\xff\xd8\xff\xe0 a poster frame \xff\xd9', 'latin1');
/** Nothing listens here: a video served at all was served from the store. */
const NOWHERE = 'http://127.0.0.1:9/gone.mp4';
const MIN = 60_000;

/** The tasks as the previous schema held them: archive state and outbox marks on the task row. */
interface OldTask {
  name: string;
  status: 'SUCCESS' | 'FAILURE';
  deleted?: boolean;
  archive?: {
    status: string | null;
    dueAt?: number;
    owner?: string;
    failures?: number;
    size?: number;
    thumbnailSize?: number;
    archivedAt?: number;
    error?: string;
  };
  end?: { dueAt: number; owner?: string };
}

describeEachDatabase('the own-tables migration moves archive state and outbox marks out of tasks', (kind) => {
  let database: FreshDatabase;
  let gw: TestGateway | undefined;
  let receiver: WebhookReceiver;
  const now = Date.now();
  const ids = new Map<string, { rowId: number; taskId: string }>();
  const tasks: OldTask[] = [
    {
      name: 'archived',
      status: 'SUCCESS',
      archive: { status: 'archived', size: SAMPLE.length, thumbnailSize: POSTER.length, archivedAt: now - 5 * MIN },
    },
    {
      name: 'pending',
      status: 'SUCCESS',
      archive: { status: 'pending', dueAt: now - MIN, failures: 2, error: 'the provider answered HTTP 500 to a whole download' },
    },
    {
      name: 'failed',
      status: 'SUCCESS',
      archive: { status: 'failed', failures: 30, error: 'the provider no longer has the video, and it was not archived before' },
    },
    { name: 'leased', status: 'SUCCESS', archive: { status: 'pending', dueAt: now + 10 * MIN, owner: 'crashed-instance#a7', failures: 1 } },
    { name: 'forgotten', status: 'SUCCESS', deleted: true, archive: { status: null, archivedAt: now - 9 * MIN } },
    // The endpoint is registered after the migration; ends reach endpoints that existed when the task ended, so these end later.
    { name: 'ended', status: 'SUCCESS', archive: { status: 'pending', dueAt: now }, end: { dueAt: now - MIN } },
    { name: 'failed-end', status: 'FAILURE', end: { dueAt: now - MIN } },
    { name: 'leased-end', status: 'FAILURE', end: { dueAt: now + 2 * MIN, owner: 'crashed-instance#e3' } },
    { name: 'published', status: 'FAILURE' },
  ];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    database = await freshDatabase(kind);
    // The database as the previous release left it: every migration before this one, then rows in that shape (later ones run at start).
    const previous = MIGRATIONS.slice(0, MIGRATIONS.indexOf(OwnTables1764600000300));
    expect(MIGRATIONS).toContain(OwnTables1764600000300);
    expect(previous.length).toBeGreaterThan(0);
    const dataSource = newDataSource({
      ...buildDataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database),
      migrations: previous,
    });
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      for (const [index, task] of tasks.entries()) {
        const taskId = `task_migrated${String(index).padStart(2, '0')}${'x'.repeat(22)}`;
        const finish = task.end ? now + 60 * MIN : now - 10 * MIN;
        const a = task.archive;
        await dataSource.query(
          'INSERT INTO tasks (task_id, user_id, user_group, platform, model, upstream_model, action, upstream_task_id, status, progress, quota, request, ' +
            'result_url, fail_reason, poll_failures, submit_time, finish_time, deleted_at, created_at, updated_at, ' +
            'archive_status, archive_due_at, archive_owner, archive_failures, archive_size, archived_at, thumbnail_size, archive_error, end_event_due_at, end_event_owner) ' +
            "VALUES (?, 1, 'default', 'alpha', 'alpha/v6', 'v6', 'textGenerate', ?, ?, 100, 0, '{}', ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          [
            taskId,
            `up_${index}`,
            task.status,
            task.status === 'SUCCESS' ? NOWHERE : null,
            task.status === 'FAILURE' ? 'generation failed' : null,
            now - 20 * MIN,
            finish,
            task.deleted ? now - 8 * MIN : null,
            now - 20 * MIN,
            finish,
            a?.status ?? null,
            a?.dueAt ?? null,
            a?.owner ?? null,
            a?.failures ?? 0,
            a?.size ?? null,
            a?.archivedAt ?? null,
            a?.thumbnailSize ?? null,
            a?.error ?? null,
            task.end?.dueAt ?? null,
            task.end?.owner ?? null,
          ],
        );
        const [row] = await dataSource.query('SELECT id FROM tasks WHERE task_id = ?', [taskId]);
        ids.set(task.name, { rowId: Number(row.id), taskId });
      }
    } finally {
      await dataSource.destroy();
    }
    // The new release starts: it runs the remaining migrations (this one and any later).
    gw = await startGateway(kind, { WEBHOOK_DELIVERY_INTERVAL_MS: '0' }, database);
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.stop();
    await database?.drop();
  });

  const rowId = (name: string) => ids.get(name)!.rowId;
  const taskId = (name: string) => ids.get(name)!.taskId;

  it('video_archives holds exactly the archive state each task had', async () => {
    const rows = await queryDatabase<Record<string, unknown>>(database, 'SELECT * FROM video_archives ORDER BY task_row_id');
    const expected = tasks
      .filter((task) => task.archive)
      .map((task) => ({
        task_row_id: rowId(task.name),
        status: task.archive!.status,
        due_at: task.archive!.dueAt ?? null,
        lease_owner: task.archive!.owner ?? null,
        failures: task.archive!.failures ?? 0,
        size: task.archive!.size ?? null,
        thumbnail_size: task.archive!.thumbnailSize ?? null,
        archived_at: task.archive!.archivedAt ?? null,
        error: task.archive!.error ?? null,
        // Added by a later migration: an archive made before it has no known expiry.
        expires_at: null,
      }));
    // mysql2 gives BIGINTs as strings here (no transformer in a raw read).
    const normalized = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value]),
      ),
    );
    expect(normalized).toEqual(expected);
  });

  it('webhook_outbox holds exactly the ends not yet published, with their leases', async () => {
    const rows = await queryDatabase<Record<string, unknown>>(
      database,
      'SELECT task_row_id, due_at, lease_owner FROM webhook_outbox ORDER BY task_row_id',
    );
    expect(rows.map((row) => ({ ...row, task_row_id: Number(row.task_row_id), due_at: Number(row.due_at) }))).toEqual(
      tasks
        .filter((task) => task.end)
        .map((task) => ({ task_row_id: rowId(task.name), due_at: task.end!.dueAt, lease_owner: task.end!.owner ?? null })),
    );
  });

  it('tasks keeps only the task: the old columns and their indexes are gone, its other indexes are all there', async () => {
    const [row] = await queryDatabase<Record<string, unknown>>(database, 'SELECT * FROM tasks ORDER BY id LIMIT 1');
    for (const gone of [
      'archive_status',
      'archive_due_at',
      'archive_owner',
      'archive_failures',
      'archive_size',
      'archived_at',
      'thumbnail_size',
      'archive_error',
      'end_event_due_at',
      'end_event_owner',
    ]) {
      expect(Object.keys(row)).not.toContain(gone);
    }
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['id', 'task_id', 'status', 'deleted_at', 'prompt', 'gateway_hops']));
    const indexes =
      kind === 'sqlite'
        ? (
            await queryDatabase<{ name: string }>(
              database,
              "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tasks' AND name NOT LIKE 'sqlite_%'",
            )
          ).map((index) => index.name)
        : kind === 'postgres'
          ? (
              await queryDatabase<{ indexname: string }>(
                database,
                "SELECT indexname FROM pg_indexes WHERE tablename = 'tasks' AND indexname NOT LIKE 'PK_%'",
              )
            ).map((index) => index.indexname)
          : [
              ...new Set((await queryDatabase<{ Key_name: string }>(database, 'SHOW INDEX FROM tasks')).map((index) => index.Key_name)),
            ].filter((name) => name !== 'PRIMARY');
    expect(indexes.sort()).toEqual([
      'ix_tasks_created',
      'ix_tasks_due',
      'ix_tasks_finish', // RetentionIndexes1764700000400, a later migration
      'ix_tasks_user_created',
      'ix_tasks_user_finish_time', // DeliveredBilling1765400000100, a later migration
      'uq_tasks_idempotency',
      'uq_tasks_task_id',
    ]);
    // The unique task id still holds.
    await expect(
      queryDatabaseWrite(
        database,
        `INSERT INTO tasks (task_id, user_id, user_group, platform, model, upstream_model, action, status, progress, quota, request, poll_failures, created_at, updated_at) VALUES ('${taskId('archived')}', 1, 'default', 'alpha', 'alpha/v6', 'v6', 'textGenerate', 'SUCCESS', 100, 0, '{}', 0, 1, 1)`,
      ),
    ).rejects.toThrow();
  });

  it('the gateway serves the moved state: stored video and poster frame, task views, video-store totals', async () => {
    const customer = await gw!.createCustomer({ quota: 0 });
    expect(customer.userId).toBe(1);
    // The stored objects were there before the upgrade (the store is not the database).
    const store = gw!.app.get<VideoStore>(VIDEO_STORE);
    const keys = gw!.app.get(VideoObjectKeys);
    await store.writeSmall(keys.video(taskId('archived')), SAMPLE, 'video/mp4');
    await store.writeSmall(keys.thumbnail(taskId('archived')), POSTER, 'image/jpeg');
    const get = (path: string) => gw!.http.get(path).set('Authorization', `Bearer ${customer.key}`).buffer(true).parse(binaryBody);

    const video = await get(`/v1/videos/${taskId('archived')}/content`).expect(200);
    expect(Buffer.compare(video.body as Buffer, SAMPLE)).toBe(0);
    expect(video.headers['last-modified']).toBe(new Date(Math.floor((now - 5 * MIN) / 1000) * 1000).toUTCString());
    const poster = await get(`/v1/videos/${taskId('archived')}/content?variant=thumbnail`).expect(200);
    expect(Buffer.compare(poster.body as Buffer, POSTER)).toBe(0);

    const listed = (await gw!.admin.get('/api/admin/tasks?page_size=50').expect(200)).body.data as Array<{
      task_id: string;
      archive_status: string | null;
      has_thumbnail: boolean;
    }>;
    const view = (name: string) => listed.find((task) => task.task_id === taskId(name));
    expect(view('archived')).toMatchObject({ archive_status: 'archived', has_thumbnail: true });
    expect(view('pending')).toMatchObject({ archive_status: 'pending', has_thumbnail: false });
    expect(view('published')).toMatchObject({ archive_status: null, has_thumbnail: false });
    const detail = (await gw!.admin.get(`/api/admin/tasks/${taskId('failed')}`).expect(200)).body;
    expect(detail).toMatchObject({ archive_status: 'failed', archive_error: tasks[2].archive!.error });
    const forgotten = (await gw!.admin.get(`/api/admin/tasks/${taskId('forgotten')}`).expect(200)).body;
    expect(forgotten.timeline).toContainEqual(
      expect.objectContaining({ at: Math.floor((now - 9 * MIN) / 1000), kind: 'archived', detail: 'archived' }),
    );

    const totals = (await gw!.admin.get('/api/admin/video-store').expect(200)).body;
    expect(totals).toMatchObject({ stored_bytes: SAMPLE.length + POSTER.length, stored_objects: 2, pending: 3, failed: 1 });
  });

  it('publishes the pending outbox marks as webhook events, once each; a leased mark after its lease ran out', async () => {
    const customer = { key: (await gw!.admin.post('/api/admin/users/1/keys', { name: 'hooks' }).expect(201)).body.key as string };
    await gw!.http.post('/v1/webhooks').set('Authorization', `Bearer ${customer.key}`).send({ url: receiver.url }).expect(201);
    const publish = () => gw!.app.get(WebhookEventPublisher).publishDueEvents();
    const deliver = () => gw!.app.get(WebhookDeliveryService).deliverDueWebhooks();
    await publish();
    await deliver();
    await until('two events received', () => receiver.received.length, { done: (received) => received >= 2 });
    const received = () => receiver.received.map((event) => `${event.json?.type} ${event.json?.data?.id}`).sort();
    expect(received()).toEqual([`video.completed ${taskId('ended')}`, `video.failed ${taskId('failed-end')}`].sort());

    gw!.clock.advance(3 * MIN);
    await publish();
    await deliver();
    await until('three events received', () => receiver.received.length, { done: (received) => received >= 3 });
    expect(received()).toEqual(
      [`video.completed ${taskId('ended')}`, `video.failed ${taskId('failed-end')}`, `video.failed ${taskId('leased-end')}`].sort(),
    );
    expect(await queryDatabase(database, 'SELECT task_row_id FROM webhook_outbox')).toEqual([]);
  });
});

/** A write straight to the test database (to check a constraint). */
async function queryDatabaseWrite(database: FreshDatabase, sql: string): Promise<void> {
  const dataSource = newDataSource({ ...buildDataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database), migrations: [] });
  await dataSource.initialize();
  try {
    await dataSource.query(sql);
  } finally {
    await dataSource.destroy();
  }
}
