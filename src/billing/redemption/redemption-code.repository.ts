import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { RedemptionCodeEntity } from './redemption-code.entity';

/** The redemption codes (`redemption_codes`, which only BillingModule reads and writes). */
@Injectable()
export class RedemptionCodeRepository {
  constructor(
    @InjectRepository(RedemptionCodeEntity) private readonly codes: Repository<RedemptionCodeEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** One batch in one transaction: every code of it, or none. */
  insertBatch(rows: Array<Omit<RedemptionCodeEntity, 'id' | 'batchId'>>): Promise<RedemptionCodeEntity[]> {
    return this.transactions.run(async (manager) => {
      const saved = await manager.save(rows.map((row) => manager.create(RedemptionCodeEntity, { ...row, batchId: null })));
      const batchId = saved[0].id;
      await manager.update(
        RedemptionCodeEntity,
        saved.map((row) => row.id),
        { batchId },
      );
      return saved.map((row) => Object.assign(row, { batchId }));
    });
  }

  /** Newest first. */
  async list(page: number, pageSize: number): Promise<{ data: RedemptionCodeEntity[]; total: number }> {
    const [data, total] = await this.codes.findAndCount({ order: { id: 'DESC' }, skip: (page - 1) * pageSize, take: pageSize });
    return { data, total };
  }

  findByHash(manager: EntityManager, codeHash: string): Promise<RedemptionCodeEntity | null> {
    return manager.findOne(RedemptionCodeEntity, { where: { codeHash } });
  }

  /**
   * Inside the caller's transaction: marks the code redeemed by `userId` if it is unredeemed and
   * unexpired at `now`, one conditional UPDATE (however many redeem it at once, one wins).
   */
  async claim(manager: EntityManager, codeHash: string, userId: number, now: number): Promise<boolean> {
    const updated = await manager
      .createQueryBuilder()
      .update(RedemptionCodeEntity)
      .set({ redeemedBy: userId, redeemedAt: now })
      .where('code_hash = :codeHash AND redeemed_at IS NULL AND (expires_at IS NULL OR expires_at > :now)', { codeHash, now })
      .execute();
    return !!updated.affected;
  }
}
