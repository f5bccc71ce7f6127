import { Injectable } from '@nestjs/common';
import { CUSTOMER_LOG_TYPES, CustomerLogType, LogEntity } from '../../billing/log.entity';
import { LogsService } from '../../billing/logs.service';
import { detailCodeOf } from '../../billing/log.view';
import { TaskQueries } from '../../tasks/task-queries.service';
import { LogTotalsService } from '../../billing/log-totals.service';

/** A customer's ledger rows: no channel ids; a refund carries its task's failure reason. */
const toCustomerLogView = (log: LogEntity, reason: string | null) => ({
  id: log.id,
  type: log.type,
  task_id: log.taskId,
  model: log.model,
  quota: log.quota,
  balance_after: log.balanceAfter,
  detail: log.detail,
  ...detailCodeOf(log.detail),
  reason,
  created_at: Math.floor(log.createdAt / 1000),
});

@Injectable()
export class CustomerLogsService {
  constructor(
    private readonly logs: LogsService,
    private readonly totals: LogTotalsService,
    private readonly tasks: TaskQueries,
  ) {}

  async find(
    userId: number,
    query: { type?: CustomerLogType; taskId?: string; from?: number; to?: number; page: number; pageSize: number },
  ) {
    const filter = { userId, type: query.type, types: CUSTOMER_LOG_TYPES, taskId: query.taskId, from: query.from, to: query.to };
    const [{ data, total }, totals] = await Promise.all([
      this.logs.find({ ...filter, page: query.page, pageSize: query.pageSize }),
      this.totals.totals(filter),
    ]);
    const refundedTaskIds = [...new Set(data.filter((log) => log.type === 'refund' && log.taskId).map((log) => log.taskId as string))];
    const reasons = await this.tasks.failReasonsOf(userId, refundedTaskIds);
    return {
      data: data.map((log) => toCustomerLogView(log, log.type === 'refund' && log.taskId ? (reasons.get(log.taskId) ?? null) : null)),
      total,
      totals,
    };
  }
}
