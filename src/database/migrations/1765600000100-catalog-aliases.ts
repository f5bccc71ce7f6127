import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/**
 * The catalog, living: an entry's other ids (`aliases`, a JSON list: old ids keep working), the
 * model's maker (`owned_by`) and its release date (`released_at`, `YYYY-MM-DD`). All nullable:
 * entries of the previous release read as having none.
 */
export class CatalogAliases1765600000100 implements MigrationInterface {
  name = 'CatalogAliases1765600000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('catalog_models', [
      new TableColumn(col.text('aliases', true)),
      new TableColumn(col.str('owned_by', 64, true)),
      new TableColumn(col.str('released_at', 10, true)),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['released_at', 'owned_by', 'aliases']) await queryRunner.dropColumn('catalog_models', column);
  }
}
