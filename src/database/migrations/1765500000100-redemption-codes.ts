import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** Redemption codes (BillingModule): each stored by its hash, redeemed once by one customer. */
export class RedemptionCodes1765500000100 implements MigrationInterface {
  name = 'RedemptionCodes1765500000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'redemption_codes',
        columns: [
          col.id(),
          col.str('code_hash', 64),
          col.str('code_hint', 16),
          col.bigint('quota'),
          col.int('batch_id', true),
          col.bigint('created_at'),
          col.bigint('expires_at', true),
          col.int('redeemed_by', true),
          col.bigint('redeemed_at', true),
        ],
        uniques: [{ name: 'uq_redemption_codes_hash', columnNames: ['code_hash'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('redemption_codes');
  }
}
