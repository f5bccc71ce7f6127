import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source-options';
import { MIGRATIONS } from '../src/database/migrations';
import { TaskProviderUsage1765300000100 } from '../src/database/migrations/1765300000100-task-provider-usage';
import { newDataSource } from '../src/database/sqlite-data-source';
import { describeEachDatabase, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

/**
 * The per-attempt provider usage migration, on every database: the last report each task kept
 * (`tasks.provider_usage`) becomes its attempt's row, on the task's channel; tasks without a report
 * (or without a channel) get none.
 */
describeEachDatabase('the provider usage migration keeps earlier reports per attempt', (kind) => {
  let database: FreshDatabase;
  const rowIds = new Map<string, number>();

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const options = buildDataSourceOptions(loadConfig({ DATABASE_URL: database.url }).database);
    const index = MIGRATIONS.indexOf(TaskProviderUsage1765300000100);
    expect(index).toBeGreaterThan(0);
    const before = newDataSource({ ...options, migrations: MIGRATIONS.slice(0, index) });
    await before.initialize();
    try {
      await before.runMigrations({ transaction: 'each' });
      const tasks: Array<[string, number | null, number, string | null]> = [
        ['credits', 3, 0, '{"unit":"credits","amount":120}'],
        ['retried', 4, 1, '{"unit":"usd_ticks","amount":500000000.5}'],
        ['none', 3, 0, null],
        ['no-channel', null, 0, '{"unit":"credits","amount":9}'],
      ];
      for (const [name, channelId, retries, usage] of tasks) {
        await before.query(
          'INSERT INTO tasks (task_id, user_id, user_group, platform, model, upstream_model, action, status, progress, quota, request, ' +
            "poll_failures, created_at, updated_at, channel_id, provider_retries, provider_usage) VALUES (?, 1, 'default', 'vidu', 'm', 'm', " +
            "'textGenerate', 'SUCCESS', 100, 0, '{}', 0, 1000, 2000, ?, ?, ?)",
          [`task_usage_${name}`, channelId, retries, usage],
        );
        const [row] = await before.query('SELECT id FROM tasks WHERE task_id = ?', [`task_usage_${name}`]);
        rowIds.set(name, Number(row.id));
      }
    } finally {
      await before.destroy();
    }
    const after = newDataSource({ ...options, migrations: MIGRATIONS });
    await after.initialize();
    try {
      await after.runMigrations({ transaction: 'each' });
    } finally {
      await after.destroy();
    }
  }, 120_000);
  afterAll(() => database?.drop());

  it("copies each task's last report as its attempt's, on its channel", async () => {
    const rows = await queryDatabase<Record<string, string | number>>(
      database,
      'SELECT task_row_id, attempt, channel_id, unit, amount, reported_at FROM task_provider_usage ORDER BY task_row_id',
    );
    expect(rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'unit' ? v : Number(v)])))).toEqual([
      { task_row_id: rowIds.get('credits'), attempt: 0, channel_id: 3, unit: 'credits', amount: 120, reported_at: 2000 },
      { task_row_id: rowIds.get('retried'), attempt: 1, channel_id: 4, unit: 'usd_ticks', amount: 500000000.5, reported_at: 2000 },
    ]);
  });
});
