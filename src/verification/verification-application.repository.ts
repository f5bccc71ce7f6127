import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { findPage } from '../database/find-page';
import { TransactionRunner } from '../database/transaction-runner';
import { ApplicationStatus, VerificationApplicationEntity } from './entities/verification-application.entity';

/** Applications for the verification capability (`verification_applications`, which only VerificationModule reads and writes). */
@Injectable()
export class VerificationApplicationRepository {
  constructor(
    @InjectRepository(VerificationApplicationEntity) private readonly applications: Repository<VerificationApplicationEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Files an application, in one transaction with the check that the account has none pending: else that pending one. */
  insertUnlessPending(
    application: Omit<VerificationApplicationEntity, 'id'>,
  ): Promise<{ created: VerificationApplicationEntity } | { pending: VerificationApplicationEntity }> {
    return this.transactions.run(async (manager) => {
      const pending = await manager.findOne(VerificationApplicationEntity, { where: { userId: application.userId, status: 'pending' } });
      if (pending) return { pending };
      return { created: await manager.save(manager.create(VerificationApplicationEntity, application)) };
    });
  }

  /** The account's applications, newest first. */
  listOwn(userId: number): Promise<VerificationApplicationEntity[]> {
    return this.applications.find({ where: { userId }, order: { id: 'DESC' } });
  }

  /** One page (newest first) of every application, or of those with `status`, and how many there are. */
  page(status: ApplicationStatus | undefined, paging: { page: number; pageSize: number }) {
    return findPage(this.applications, status ? { status } : {}, paging);
  }

  /** Inside the caller's transaction. */
  findIn(manager: EntityManager, id: number): Promise<VerificationApplicationEntity | null> {
    return manager.findOne(VerificationApplicationEntity, { where: { id } });
  }

  /** Inside the caller's transaction: a compare-and-set on `pending`, so two reviewers cannot both decide. False when it was decided already. */
  async decide(manager: EntityManager, id: number, outcome: 'approved' | 'rejected', note: string | null, now: number): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(VerificationApplicationEntity)
      .set({ status: outcome, reviewNote: note, reviewedAt: now, updatedAt: now })
      .where('id = :id AND status = :pending', { id, pending: 'pending' })
      .execute();
    return !!result.affected;
  }
}
