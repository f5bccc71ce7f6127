import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { TransactionRunner } from '../database/transaction-runner';

/**
 * Reachable is not enough: a full disk still answers pings while no write can commit. Once a write
 * has failed for want of a usable database, each check commits a tiny probe write until one works.
 */
@Injectable()
export class DatabaseWritesIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly transactions: TransactionRunner,
  ) {}

  async check(key: string) {
    const indicator = this.health.check(key);
    if (!this.transactions.writesFailing) return indicator.up();
    try {
      await this.transactions.probeWrite();
      return indicator.up();
    } catch {
      return indicator.down({ message: 'writes cannot be committed' });
    }
  }
}
