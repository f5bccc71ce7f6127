import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { SimulatorRecordEntity } from './simulator-record.entity';
import { SimulatorRecordRepository } from './simulator-record.repository';

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
 * tasks, groups and assets. The SQL is SimulatorRecordRepository's.
 */
@Injectable()
export class SimulatorRecords {
  constructor(
    private readonly records: SimulatorRecordRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores a record unless its key exists, and answers the stored one (a repeated key, such as a
   * de-duplicated submit, gets the earlier record).
   */
  async insertOrGet<T>(kind: string, key: string, data: T, parentKey: string | null = null): Promise<SimulatorRecord<T>> {
    await this.records.insertUnlessExists({ kind, key, parentKey, data: data as never, createdAt: this.clock.now() });
    const stored = await this.find<T>(kind, key);
    if (!stored) throw new Error(`simulator record ${kind}/${key} was not stored`);
    return stored;
  }

  async find<T>(kind: string, key: string): Promise<SimulatorRecord<T> | null> {
    const row = await this.records.findByKey(kind, key);
    return row ? toRecord<T>(row) : null;
  }

  async findBySeq<T>(kind: string, seq: number): Promise<SimulatorRecord<T> | null> {
    if (!Number.isSafeInteger(seq) || seq <= 0) return null;
    const row = await this.records.findBySeq(kind, seq);
    return row ? toRecord<T>(row) : null;
  }

  /** The records of a kind, newest first; `parentKeys` narrows to those children. */
  async list<T>(kind: string, options: { parentKeys?: string[]; limit?: number } = {}): Promise<SimulatorRecord<T>[]> {
    if (options.parentKeys?.length === 0) return [];
    const rows = await this.records.listNewestFirst(kind, options.limit ?? 1000, options.parentKeys);
    return rows.map((row) => toRecord<T>(row));
  }

  update<T>(kind: string, key: string, data: T): Promise<void> {
    return this.records.updateData(kind, key, data as never);
  }

  /** True when there was such a record. */
  remove(kind: string, key: string): Promise<boolean> {
    return this.records.delete(kind, key);
  }

  /** Forgets records of a kind created before `cutoff` (providers forget old tasks too). */
  forgetOlderThan(kind: string, cutoff: number): Promise<void> {
    return this.records.deleteCreatedBefore(kind, cutoff);
  }
}
