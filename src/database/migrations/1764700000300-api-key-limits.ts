import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** API keys' own limits (quota, budget per period, expiry, allowed addresses, rpm) and when each was last used. */
export class ApiKeyLimits1764700000300 implements MigrationInterface {
  name = 'ApiKeyLimits1764700000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('api_keys', [
      new TableColumn(col.bigint('quota_limit', true)),
      new TableColumn(col.bigint('used_quota', false, 0)),
      new TableColumn(col.bigint('budget', true)),
      new TableColumn(col.str('budget_period', 8, true)),
      new TableColumn(col.bigint('budget_used', false, 0)),
      // The start of the budget's current period (ms): a period ends by comparison on use, no job resets keys.
      new TableColumn(col.bigint('budget_period_start', true)),
      new TableColumn(col.bigint('expires_at', true)),
      new TableColumn(col.text('allowed_ips')),
      new TableColumn(col.int('rpm', false, 0)),
      new TableColumn(col.bigint('last_used_at', true)),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of [
      'last_used_at',
      'rpm',
      'allowed_ips',
      'expires_at',
      'budget_period_start',
      'budget_used',
      'budget_period',
      'budget',
      'used_quota',
      'quota_limit',
    ])
      await queryRunner.dropColumn('api_keys', name);
  }
}
