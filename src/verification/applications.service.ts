import { Injectable } from '@nestjs/common';
import type { UserEntity } from '../auth/user.entity';
import { UsersService } from '../auth/users.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { ApplicationStatus, VerificationApplicationEntity } from './entities/verification-application.entity';
import { VerificationApplicationRepository } from './verification-application.repository';

export interface ApplicationInput {
  company: string;
  useCase: string;
  contact: string;
}

/** Filing and reviewing applications for the verification capability. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly applications: VerificationApplicationRepository,
    private readonly users: UsersService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async file(user: UserEntity, input: ApplicationInput): Promise<VerificationApplicationEntity> {
    if (user.verificationEnabled) throw new AppError(ErrorCode.Conflict, 'real-person verification is already enabled for this account');
    const now = this.clock.now();
    const filed = await this.applications.insertUnlessPending({
      userId: user.id,
      company: input.company.trim(),
      useCase: input.useCase.trim(),
      contact: input.contact.trim(),
      status: 'pending',
      reviewNote: null,
      reviewedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    if ('pending' in filed) throw new AppError(ErrorCode.Conflict, `application ${filed.pending.id} is already waiting for review`);
    return filed.created;
  }

  listOwn(userId: number): Promise<VerificationApplicationEntity[]> {
    return this.applications.listOwn(userId);
  }

  async list(query: { status?: ApplicationStatus; page: number; pageSize: number }) {
    const { data, total } = await this.applications.page(query.status, query);
    const names = await this.users.usernamesOf(data.map((application) => application.userId));
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
      const found = await this.applications.findIn(manager, id);
      if (!found) throw AppError.notFound(`application ${id} not found`);
      if (!(await this.applications.decide(manager, id, outcome, note?.trim() || null, now)))
        throw new AppError(ErrorCode.Conflict, `application ${id} was already ${found.status}`);
      if (outcome === 'approved') await this.users.enableVerificationInTransaction(manager, found.userId);
      return (await this.applications.findIn(manager, id))!;
    });
    if (outcome === 'approved') this.users.forgetCached(application.userId);
    return application;
  }
}
