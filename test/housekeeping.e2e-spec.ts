import { HousekeepingJob } from '../src/housekeeping/housekeeping.job';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, executeOnDatabase, queryDatabase } from './support/test-databases';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeEachDatabase('housekeeping: expired and old rows are deleted, newer ones kept, and counted in /metrics', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind);
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const count = async (sql: string) => Number((await queryDatabase<{ n: number | string }>(gw.database, sql))[0].n);
  const insert = (sql: string, parameters: Array<string | number | null>) => executeOnDatabase(gw.database, sql, parameters);
  const deletedRows = (metrics: string, table: string) =>
    Number(new RegExp(`gateway_housekeeping_rows_deleted_total\\{table="${table}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);

  it('sessions, portrait uploads, idempotency keys, webhook deliveries past 30 days and call statistics past 90 days', async () => {
    const now = gw.clock.now();
    // Console sessions: one expired an hour ago, one still valid after the day this test moves the clock on.
    const session = 'INSERT INTO console_sessions (token_hash, kind, user_id, created_at, expires_at) VALUES (?, ?, NULL, ?, ?)';
    await insert(session, ['a'.repeat(64), 'admin_token', now - 13 * HOUR, now - HOUR]);
    await insert(session, ['b'.repeat(64), 'admin_token', now - HOUR, now + 2 * DAY]);
    // Portrait uploads: one whose link expired, one still fetchable (also after that day).
    const upload =
      'INSERT INTO portrait_uploads (upload_id, user_id, content_type, size, bytes, created_at, expires_at) VALUES (?, 1, ?, ?, ?, ?, ?)';
    await insert(upload, ['pu_old', 'image/png', 1000, 'x'.repeat(1000), now - 2 * DAY, now - DAY]);
    await insert(upload, ['pu_new', 'image/png', 10, 'y'.repeat(10), now - HOUR, now + 2 * DAY]);
    // Webhook attempts: settled ones older than 30 days go; a recent one and a pending one stay. Then
    // the events no attempt refers to any more go too (event 1), the others stay.
    const event =
      "INSERT INTO webhook_events (id, event_id, user_id, type, task_id, payload, created_at) VALUES (?, ?, 1, 'video.completed', NULL, '{}', ?)";
    await insert(event, [1, 'evt_old', now - 41 * DAY]);
    await insert(event, [2, 'evt_old_pending', now - 32 * DAY]);
    await insert(event, [3, 'evt_recent', now - 28 * DAY]);
    const delivery =
      'INSERT INTO webhook_deliveries (delivery_id, endpoint_id, event_id, attempt, state, due_at, created_at) VALUES (?, 1, ?, 1, ?, ?, ?)';
    await insert(delivery, ['whd_old_ok', 1, 'succeeded', null, now - 31 * DAY]);
    await insert(delivery, ['whd_old_failed', 1, 'failed', null, now - 40 * DAY]);
    await insert(delivery, ['whd_old_pending', 2, 'pending', now, now - 31 * DAY]);
    await insert(delivery, ['whd_recent', 3, 'succeeded', null, now - 28 * DAY]);
    // Upstream call statistics: minutes older than 90 days go.
    const stats = 'INSERT INTO upstream_call_stats (minute, channel_id, calls, errors, latency_sum_ms) VALUES (?, 1, 3, 0, 300)';
    await insert(stats, [now - 91 * DAY - (now % 60_000)]);
    await insert(stats, [now - 88 * DAY - (now % 60_000)]);

    // An Idempotency-Key is freed once its 24 h window passed.
    await gw.createChannel(alphaChannelBody(fake));
    const { key } = await gw.createCustomer({ quota: 1_000_000 });
    const submitted = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', 'order-42')
      .send({ model: 'alpha/v5', prompt: 'a lighthouse' })
      .expect(200);
    const keyOf = async () =>
      (
        await queryDatabase<{ idempotency_key: string | null }>(
          gw.database,
          `SELECT idempotency_key FROM tasks WHERE task_id = '${submitted.body.id}'`,
        )
      )[0].idempotency_key;

    // Within the window nothing of it goes.
    await gw.app.get(HousekeepingJob).sweepNow();
    expect(await keyOf()).toBe('order-42');
    expect(await count(`SELECT COUNT(*) AS n FROM console_sessions WHERE token_hash = '${'a'.repeat(64)}'`)).toBe(0);

    gw.clock.advance(DAY + HOUR);
    const before = (await gw.http.get('/metrics').expect(200)).text;
    await gw.app.get(HousekeepingJob).sweepNow();
    expect(await keyOf()).toBeNull();
    // The task itself stays.
    expect((await gw.http.get(`/v1/videos/${submitted.body.id}`).set('Authorization', `Bearer ${key}`)).status).toBe(200);

    const sessions = await queryDatabase<{ token_hash: string }>(
      gw.database,
      'SELECT token_hash FROM console_sessions ORDER BY token_hash',
    );
    expect(sessions.map((row) => row.token_hash)).not.toContain('a'.repeat(64));
    expect(sessions.map((row) => row.token_hash)).toContain('b'.repeat(64));
    expect(
      (await queryDatabase<{ upload_id: string }>(gw.database, 'SELECT upload_id FROM portrait_uploads')).map((row) => row.upload_id),
    ).toEqual(['pu_new']);
    const deliveries = await queryDatabase<{ delivery_id: string }>(
      gw.database,
      'SELECT delivery_id FROM webhook_deliveries ORDER BY delivery_id',
    );
    expect(deliveries.map((row) => row.delivery_id)).toEqual(['whd_old_pending', 'whd_recent']);
    const events = await queryDatabase<{ event_id: string }>(gw.database, 'SELECT event_id FROM webhook_events ORDER BY id');
    expect(events.map((row) => row.event_id)).toEqual(['evt_old_pending', 'evt_recent']);
    // The 88-day minute stays (the submit above may have added a row of today's too).
    expect(await count(`SELECT COUNT(*) AS n FROM upstream_call_stats WHERE minute < ${now - DAY}`)).toBe(1);

    const metrics = (await gw.http.get('/metrics').expect(200)).text;
    expect(deletedRows(metrics, 'console_sessions')).toBeGreaterThanOrEqual(1);
    expect(deletedRows(metrics, 'portrait_uploads')).toBe(1);
    expect(deletedRows(metrics, 'webhook_deliveries')).toBe(2);
    expect(deletedRows(metrics, 'webhook_events')).toBe(1);
    expect(deletedRows(metrics, 'upstream_call_stats')).toBe(1);
    expect(deletedRows(metrics, 'idempotency_keys') - deletedRows(before, 'idempotency_keys')).toBe(1);
    expect(metrics).toMatch(/gateway_housekeeping_bytes_deleted_total\{table="portrait_uploads"\} 1000\b/);

    // The admin dashboard shows the figure.
    const dashboard = (await gw.admin.get('/api/admin/dashboard').expect(200)).body;
    expect(dashboard.housekeeping.rows_deleted).toBeGreaterThanOrEqual(7);
    expect(dashboard.housekeeping.bytes_deleted).toBeGreaterThanOrEqual(1000);
  });
});
