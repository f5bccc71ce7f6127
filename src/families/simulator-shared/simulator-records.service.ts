import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Repository } from 'typeorm';
import { Clock } from '../../common/runtime/clock';
import { TransactionRunner } from '../../database/transaction-runner';
import { SimulatorRecordEntity } from './simulator-record.entity';

export interface SimulatorRecord<T> {
  seq: number;
  key: string;
  parentKey: string | null;
  data: T;
  createdAt: number;
}

const toRecord = <T>(row: SimulatorRecordEntity): SimulatorRecord<T> => ({
  seq: Number(row.seq),
  key: row.key,
  parentKey: row.parentKey,
  data: row.data as T,
  createdAt: row.createdAt,
});

/**
 * The simulators' state in the gateway's database: one table, records by kind and key. Every
 * simulator reads and writes through here, so a restart (or another instance) sees the same
 * tasks, groups and assets.
 */
@Injectable()
export class SimulatorRecords {
  constructor(
    @InjectRepository(SimulatorRecordEntity) private readonly records: Repository<SimulatorRecordEntity>,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores a record unless its key exists, and answers the stored one (a repeated key, such as a
   * de-duplicated submit, gets the earlier record).
   */
  async insertOrGet<T>(kind: string, key: string, data: T, parentKey: string | null = null): Promise<SimulatorRecord<T>> {
    const row = { kind, key, parentKey, data: data as never, createdAt: this.clock.now() };
    await this.transactions.runStatement((manager) =>
      manager.createQueryBuilder().insert().into(SimulatorRecordEntity).values(row).orIgnore().execute(),
    );
    const stored = await this.find<T>(kind, key);
    if (!stored) throw new Error(`simulator record ${kind}/${key} was not stored`);
    return stored;
  }

  async find<T>(kind: string, key: string): Promise<SimulatorRecord<T> | null> {
    const row = await this.records.findOne({ where: { kind, key } });
    return row ? toRecord<T>(row) : null;
  }

  async findBySeq<T>(kind: string, seq: number): Promise<SimulatorRecord<T> | null> {
    if (!Number.isSafeInteger(seq) || seq <= 0) return null;
    const row = await this.records.findOne({ where: { kind, seq } });
    return row ? toRecord<T>(row) : null;
  }

  /** The records of a kind, newest first; `parentKeys` narrows to those children. */
  async list<T>(kind: string, options: { parentKeys?: string[]; limit?: number } = {}): Promise<SimulatorRecord<T>[]> {
    if (options.parentKeys?.length === 0) return [];
    const rows = await this.records.find({
      where: { kind, ...(options.parentKeys ? { parentKey: In(options.parentKeys) } : {}) },
      order: { seq: 'DESC' },
      take: options.limit ?? 1000,
    });
    return rows.map((row) => toRecord<T>(row));
  }

  async update<T>(kind: string, key: string, data: T): Promise<void> {
    await this.transactions.runStatement((manager) => manager.update(SimulatorRecordEntity, { kind, key }, { data: data as never }));
  }

  /** True when there was such a record. */
  async remove(kind: string, key: string): Promise<boolean> {
    const result = await this.transactions.runStatement((manager) => manager.delete(SimulatorRecordEntity, { kind, key }));
    return (result.affected ?? 0) > 0;
  }

  /** Forgets records of a kind created before `cutoff` (providers forget old tasks too). */
  async forgetOlderThan(kind: string, cutoff: number): Promise<void> {
    await this.transactions.runStatement((manager) => manager.delete(SimulatorRecordEntity, { kind, createdAt: LessThan(cutoff) }));
  }
}
