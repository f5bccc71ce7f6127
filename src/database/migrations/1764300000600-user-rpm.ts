import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './1763700000000-initial-schema';

/** The account rate limit: requests per minute on /v1/* (0 = unlimited). */
export class UserRpm1764300000600 implements MigrationInterface {
  name = 'UserRpm1764300000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('users', new TableColumn(col.int('rpm', false, 0)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('users', 'rpm');
  }
}
