import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';
import { identifierColumn } from './1764000000100-identifier-collation';

/**
 * The model catalog (`catalog_models`): one row per public model, its capabilities and routes as
 * JSON. Its prices stay in `price_rules` (one store, read by the entry and the Prices page alike).
 */
export class ModelCatalog1764900000100 implements MigrationInterface {
  name = 'ModelCatalog1764900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const identifier = await identifierColumn(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'catalog_models',
        columns: [
          { ...identifier('model_id', 64), isPrimary: true },
          col.str('label', 128, true),
          col.text('capabilities', false),
          col.text('routes', false),
          col.str('status', 16),
          col.bigint('sunset_at', true),
          identifier('replacement', 64, true),
          col.str('source', 16),
          col.int('modified', false, 0),
          col.bigint('created_at'),
          col.bigint('updated_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('catalog_models');
  }
}
