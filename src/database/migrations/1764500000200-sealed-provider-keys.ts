import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider keys are stored sealed (`enc:v1:` + base64 of AES-256-GCM, src/upstream/channel-secret-box.ts),
 * longer than the 512 characters a key may have: `api_key` becomes TEXT. SQLite does not enforce a
 * VARCHAR length, so only MySQL and PostgreSQL change. The plain rows themselves are sealed at start
 * (ChannelSecretsReseal), where the server secret is known.
 */
export class SealedProviderKeys1764500000200 implements MigrationInterface {
  name = 'SealedProviderKeys1764500000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query('ALTER TABLE channels ALTER COLUMN api_key TYPE TEXT');
      return;
    }
    if (!this.isMysql(queryRunner)) return;
    await queryRunner.query('ALTER TABLE `channels` MODIFY `api_key` TEXT NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query('ALTER TABLE channels ALTER COLUMN api_key TYPE VARCHAR(512)');
      return;
    }
    if (!this.isMysql(queryRunner)) return;
    await queryRunner.query('ALTER TABLE `channels` MODIFY `api_key` VARCHAR(512) NOT NULL');
  }

  private isMysql(queryRunner: QueryRunner): boolean {
    return ['mysql', 'mariadb'].includes(queryRunner.connection.options.type);
  }
}
