import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { PortraitUploadEntity } from './entities/portrait-upload.entity';

/** Portraits uploaded as files (`portrait_uploads`, which only VerificationModule reads and writes). */
@Injectable()
export class PortraitUploadRepository {
  constructor(
    @InjectRepository(PortraitUploadEntity) private readonly uploads: Repository<PortraitUploadEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Writes an upload and, in the same transaction, deletes those expired before `now` (the table holds about a day). */
  async insertSweepingExpired(upload: Omit<PortraitUploadEntity, 'id'>, now: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      await manager.delete(PortraitUploadEntity, { expiresAt: LessThan(now) });
      await manager.insert(PortraitUploadEntity, upload);
    });
  }

  findByUploadId(uploadId: string): Promise<PortraitUploadEntity | null> {
    return this.uploads.findOne({ where: { uploadId } });
  }

  /** Housekeeping: deletes up to `limit` uploads that expired before `now`; returns the rows and the bytes they held. */
  deleteExpired(now: number, limit: number): Promise<{ rows: number; bytes: number }> {
    return this.transactions.runStatement(async (manager) => {
      const expired = { expiresAt: LessThan(now) };
      const picked = await manager.find(PortraitUploadEntity, {
        select: { id: true, size: true },
        where: expired,
        order: { id: 'ASC' },
        take: limit,
      });
      if (picked.length === 0) return { rows: 0, bytes: 0 };
      const result = await manager.delete(PortraitUploadEntity, { ...expired, id: In(picked.map((upload) => upload.id)) });
      return { rows: result.affected ?? picked.length, bytes: picked.reduce((sum, upload) => sum + upload.size, 0) };
    });
  }
}
