import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { Clock } from '../../common/runtime/clock';
import { TransactionRunner } from '../../database/transaction-runner';
import { LedgerService } from '../ledger.service';
import type { LogEntity } from '../log.entity';
import { hashRedemptionCode, newRedemptionCode, normalizeRedemptionCode, redemptionCodeHint } from './redemption-code-text';
import type { RedemptionCodeEntity } from './redemption-code.entity';
import { RedemptionCodeRepository } from './redemption-code.repository';

/** The most codes one request makes: a printable batch, one transaction. */
export const MAX_CODES_PER_BATCH = 1000;

export interface IssuedCode {
  entity: RedemptionCodeEntity;
  /** The code itself: returned this once, never stored. */
  code: string;
}

/** Money in: an operator makes codes worth quota; a customer redeems one, once, into a `topup` ledger row. */
@Injectable()
export class RedemptionCodesService {
  constructor(
    private readonly codes: RedemptionCodeRepository,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async issue(quota: number, count: number, expiresAt: number | null): Promise<IssuedCode[]> {
    const now = this.clock.now();
    if (expiresAt !== null && expiresAt <= now) throw AppError.invalid('expires_at must be in the future', 'expires_at');
    const texts = Array.from({ length: count }, newRedemptionCode);
    const rows = texts.map((code) => {
      const normalized = normalizeRedemptionCode(code);
      return {
        codeHash: hashRedemptionCode(normalized),
        codeHint: redemptionCodeHint(normalized),
        quota,
        createdAt: now,
        expiresAt,
        redeemedBy: null,
        redeemedAt: null,
      };
    });
    const saved = await this.codes.insertBatch(rows);
    return saved.map((entity, i) => ({ entity, code: texts[i] }));
  }

  list(page: number, pageSize: number): Promise<{ data: RedemptionCodeEntity[]; total: number }> {
    return this.codes.list(page, pageSize);
  }

  /** A code's state now. */
  stateOf(code: RedemptionCodeEntity): RedemptionCodeState {
    return redemptionCodeState(code, this.clock.now());
  }

  /** The code's quota added to the customer's balance, its ledger row in the same transaction; a 400 saying why not. */
  redeem(userId: number, typed: string): Promise<LogEntity> {
    const normalized = normalizeRedemptionCode(typed);
    const codeHash = hashRedemptionCode(normalized);
    return this.transactions.run(async (manager) => {
      const now = this.clock.now();
      if (!(await this.codes.claim(manager, codeHash, userId, now))) {
        const code = await this.codes.findByHash(manager, codeHash);
        if (!code) throw AppError.invalid('this code does not exist: check it was typed as printed', 'code');
        if (code.redeemedAt !== null) throw AppError.invalid('this code has already been redeemed', 'code');
        throw AppError.invalid('this code has expired', 'code');
      }
      const code = (await this.codes.findByHash(manager, codeHash))!;
      return this.ledger.topUpInTransaction(manager, userId, code.quota, `redemption code …${code.codeHint} (#${code.id})`);
    });
  }
}

export type RedemptionCodeState = 'unused' | 'redeemed' | 'expired';

/** A code's state as listed. */
export function redemptionCodeState(code: RedemptionCodeEntity, now: number): RedemptionCodeState {
  if (code.redeemedAt !== null) return 'redeemed';
  return code.expiresAt !== null && code.expiresAt <= now ? 'expired' : 'unused';
}
