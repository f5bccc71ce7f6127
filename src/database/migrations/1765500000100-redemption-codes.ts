import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';

const TABLE = 'redemption_codes';

/** Redemption codes (BillingModule): each stored by its hash, redeemed once by one customer. A new Table per run (TypeORM may change it). */
const redemptionCodes = () =>
  new Table({
    name: TABLE,
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
  });

export class RedemptionCodes1765500000100 implements MigrationInterface {
  name = 'RedemptionCodes1765500000100';

  up = (queryRunner: QueryRunner): Promise<void> => queryRunner.createTable(redemptionCodes());

  down = (queryRunner: QueryRunner): Promise<void> => queryRunner.dropTable(TABLE);
}
