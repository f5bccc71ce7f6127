import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './1763700000000-initial-schema';
import { binaryCollation } from './1764000000100-identifier-collation';

/** The embedded simulator's state (tasks, images, sessions, groups, assets), so it survives restarts. */
export class SimulatorRecords1764200000400 implements MigrationInterface {
  name = 'SimulatorRecords1764200000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Keys are provider ids and tokens: compared byte for byte, as on SQLite.
    const binary = ['mysql', 'mariadb'].includes(queryRunner.connection.options.type)
      ? { charset: 'utf8mb4', collation: await binaryCollation(queryRunner, 'utf8mb4') }
      : {};
    await queryRunner.createTable(
      new Table({
        name: 'simulator_records',
        columns: [
          { ...col.id(), name: 'seq' },
          col.str('kind', 32),
          { ...col.str('record_key', 191), ...binary },
          { ...col.str('parent_key', 191, true), ...binary },
          col.text('data', false),
          col.bigint('created_at'),
        ],
        indices: [
          { name: 'uq_simulator_records_key', columnNames: ['kind', 'record_key'], isUnique: true },
          { name: 'ix_simulator_records_parent', columnNames: ['kind', 'parent_key'] },
          { name: 'ix_simulator_records_created', columnNames: ['kind', 'created_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('simulator_records');
  }
}
