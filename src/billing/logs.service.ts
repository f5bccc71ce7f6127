import { Injectable } from '@nestjs/common';
import { LogRepository, type LogFilter } from './log.repository';
import { LogEntity, LogType } from './log.entity';

export interface LogQuery extends LogFilter {
  page: number;
  pageSize: number;
}

/** Reads the ledger for the admin API and the console. */
@Injectable()
export class LogsService {
  constructor(private readonly logs: LogRepository) {}

  find(query: LogQuery): Promise<{ data: LogEntity[]; total: number }> {
    return this.logs.page(query, query);
  }

  /**
   * Signed quota and row count per day and type of one user since `from` (ms). Days break at
   * midnight `offsetMs` east of UTC; `day` is the day's start in that shifted time.
   */
  sumsByDay(
    userId: number,
    from: number,
    offsetMs: number,
    dayMs: number,
    types: readonly LogType[],
  ): Promise<Array<{ day: string | number; type: LogType; sum: string | number; count: string | number }>> {
    return this.logs.sumsByDay(userId, from, offsetMs, dayMs, types);
  }

  /**
   * The balance after the last ledger row of each day (UTC, `dayMs` long) since `from`, and the
   * balance after the last row before `from`: a balance line drawn from the ledger itself.
   */
  async closingBalances(userId: number, from: number, dayMs: number): Promise<{ opening: number | null; byDay: Map<number, number> }> {
    const lastIds = await this.logs.lastIdsByDay(userId, from, dayMs);
    const balanceOf = await this.logs.balancesAfter(lastIds.map((row) => row.last));
    const byDay = new Map(lastIds.map((row) => [row.day, balanceOf.get(row.last) ?? 0]));
    return { opening: await this.logs.balanceBefore(userId, from), byDay };
  }

  /** Net quota charged (charges minus refunds, positive) and tasks charged per model of one user since `from`. */
  netChargesByModel(userId: number, from: number): Promise<Array<{ model: string; quota: number; tasks: number }>> {
    return this.logs.netChargesByModel(userId, from);
  }

  /** Every ledger row of one task, oldest first (its charge, its refund). */
  forTask(taskId: string): Promise<LogEntity[]> {
    return this.logs.forTask(taskId);
  }

  /** Sum of signed quota per type, for totals in the console. */
  totals(userId?: number): Promise<Record<string, number>> {
    return this.logs.sumsByType(userId);
  }
}
