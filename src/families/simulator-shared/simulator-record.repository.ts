import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Repository } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { SimulatorRecordEntity } from './simulator-record.entity';

/** The simulators' state (`simulator_records`): records by kind and key, which only SimulatorRecords reads and writes. */
@Injectable()
export class SimulatorRecordRepository {
  constructor(
    @InjectRepository(SimulatorRecordEntity) private readonly records: Repository<SimulatorRecordEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Writes a record unless one of its kind and key exists (then nothing changes). */
  async insertUnlessExists(row: Omit<SimulatorRecordEntity, 'seq'>): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager
        .createQueryBuilder()
        .insert()
        .into(SimulatorRecordEntity)
        .values({ ...row, data: row.data as never })
        .orIgnore()
        .execute(),
    );
  }

  findByKey(kind: string, key: string): Promise<SimulatorRecordEntity | null> {
    return this.records.findOne({ where: { kind, key } });
  }

  findBySeq(kind: string, seq: number): Promise<SimulatorRecordEntity | null> {
    return this.records.findOne({ where: { kind, seq } });
  }

  /** Up to `limit` records of a kind, newest first; `parentKeys` narrows to those children. */
  listNewestFirst(kind: string, limit: number, parentKeys?: string[]): Promise<SimulatorRecordEntity[]> {
    return this.records.find({
      where: { kind, ...(parentKeys ? { parentKey: In(parentKeys) } : {}) },
      order: { seq: 'DESC' },
      take: limit,
    });
  }

  async updateData(kind: string, key: string, data: SimulatorRecordEntity['data']): Promise<void> {
    await this.transactions.runStatement((manager) => manager.update(SimulatorRecordEntity, { kind, key }, { data: data as never }));
  }

  /** True when there was such a record. */
  async delete(kind: string, key: string): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) => manager.delete(SimulatorRecordEntity, { kind, key }));
    return (result.affected ?? 0) > 0;
  }

  async deleteCreatedBefore(kind: string, cutoff: number): Promise<void> {
    await this.transactions.runStatement((manager) => manager.delete(SimulatorRecordEntity, { kind, createdAt: LessThan(cutoff) }));
  }
}
