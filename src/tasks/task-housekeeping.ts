import { Injectable } from '@nestjs/common';
import { HousekeepingSweeps } from '../housekeeping/housekeeping-sweeps';
import { IDEMPOTENCY_WINDOW_MS } from './submit/submit-idempotency';
import { TaskSweepRepository } from './repositories/task-sweep.repository';

/** Idempotency-Keys past their window are freed by housekeeping (the task stays; the key may be used again). */
@Injectable()
export class TaskHousekeeping {
  constructor(sweeps: HousekeepingSweeps, tasks: TaskSweepRepository) {
    sweeps.register({
      table: 'idempotency_keys',
      sweep: async (now, limit) => ({ rows: await tasks.clearIdempotencyKeysBefore(now - IDEMPOTENCY_WINDOW_MS, limit) }),
    });
  }
}
