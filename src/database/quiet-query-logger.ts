import { Logger as NestLogger } from '@nestjs/common';
import type { Logger } from 'typeorm';

/**
 * TypeORM reports a query slower than `maxQueryExecutionTime` on the console whatever `logging`
 * says. Such a query has already failed with a timeout (and answered 503); one short line without
 * parameters (they may hold key hashes) is enough for operators.
 */
export class QuietQueryLogger implements Logger {
  private readonly logger = new NestLogger('Database');

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${query.slice(0, 120)}`);
  }

  logQuery(): void {}
  logQueryError(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
