import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ApiKeyCache } from '../auth/api-key-cache';
import { UserEntity } from '../auth/user.entity';
import { AppError, ErrorCode } from '../common/app-error';
import { Clock } from '../common/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { ApplicationStatus, VerificationApplicationEntity } from './entities/verification-application.entity';

export interface ApplicationInput {
  company: string;
  useCase: string;
  contact: string;
}

/** Filing and reviewing applications for the verification capability. */
@Injectable()
export class ApplicationsService {
  constructor(
    @InjectRepository(VerificationApplicationEntity) private readonly applications: Repository<VerificationApplicationEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly transactions: TransactionRunner,
    private readonly keyCache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  async file(user: UserEntity, input: ApplicationInput): Promise<VerificationApplicationEntity> {
    if (user.verificationEnabled) throw new AppError(ErrorCode.Conflict, 'real-person verification is already enabled for this account');
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const pending = await manager.findOne(VerificationApplicationEntity, { where: { userId: user.id, status: 'pending' } });
      if (pending) throw new AppError(ErrorCode.Conflict, `application ${pending.id} is already waiting for review`);
      return manager.save(
        manager.create(VerificationApplicationEntity, {
          userId: user.id,
          company: input.company.trim(),
          useCase: input.useCase.trim(),
          contact: input.contact.trim(),
          status: 'pending',
          reviewNote: null,
          reviewedAt: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
    });
  }

  listOwn(userId: number): Promise<VerificationApplicationEntity[]> {
    return this.applications.find({ where: { userId }, order: { id: 'DESC' } });
  }

  async list(query: { status?: ApplicationStatus; page: number; pageSize: number }) {
    const [data, total] = await this.applications.findAndCount({
      where: query.status ? { status: query.status } : {},
      order: { id: 'DESC' },
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    });
    const users = data.length ? await this.users.find({ where: { id: In([...new Set(data.map((a) => a.userId))]) } }) : [];
    const names = new Map(users.map((user) => [user.id, user.username]));
    return { data: data.map((application) => ({ application, username: names.get(application.userId) ?? null })), total };
  }

  /** Approves a pending application and enables verification for its account, in one transaction. */
  approve(id: number, note?: string): Promise<VerificationApplicationEntity> {
    return this.review(id, 'approved', note);
  }

  reject(id: number, note?: string): Promise<VerificationApplicationEntity> {
    return this.review(id, 'rejected', note);
  }

  private async review(id: number, outcome: 'approved' | 'rejected', note?: string): Promise<VerificationApplicationEntity> {
    const now = this.clock.now();
    const application = await this.transactions.run(async (manager) => {
      const found = await manager.findOne(VerificationApplicationEntity, { where: { id } });
      if (!found) throw AppError.notFound(`application ${id} not found`);
      // Compare-and-set on `pending`, so two reviewers cannot both decide.
      const result = await manager
        .createQueryBuilder()
        .update(VerificationApplicationEntity)
        .set({ status: outcome, reviewNote: note?.trim() || null, reviewedAt: now, updatedAt: now })
        .where('id = :id AND status = :pending', { id, pending: 'pending' })
        .execute();
      if (!result.affected) throw new AppError(ErrorCode.Conflict, `application ${id} was already ${found.status}`);
      if (outcome === 'approved') await manager.update(UserEntity, { id: found.userId }, { verificationEnabled: true, updatedAt: now });
      return (await manager.findOne(VerificationApplicationEntity, { where: { id } }))!;
    });
    // The key cache holds user rows; the next request must see the new flag.
    if (outcome === 'approved') this.keyCache.forgetUser(application.userId);
    return application;
  }
}
