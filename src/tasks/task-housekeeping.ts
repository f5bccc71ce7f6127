import { Injectable } from '@nestjs/common';
import { HousekeepingSweeps } from '../housekeeping/housekeeping-sweeps';
import { IDEMPOTENCY_WINDOW_MS } from './submit/submit-idempotency';
import { TaskRepository } from './task.repository';

/** Idempotency-Keys past their window are freed by housekeeping (the task stays; the key may be used again). */
@Injectable()
export class TaskHousekeeping {
  constructor(sweeps: HousekeepingSweeps, tasks: TaskRepository) {
    sweeps.register({
      table: 'idempotency_keys',
      sweep: async (now, limit) => ({ rows: await tasks.clearIdempotencyKeysBefore(now - IDEMPOTENCY_WINDOW_MS, limit) }),
    });
  }
}
