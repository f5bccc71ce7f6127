import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { INSTANCE_ID } from '../../config/instance-id';
import { TaskSubmitRepository } from '../repositories/task-submit.repository';
import { SubmitLease } from '../submit-lease';
import type { TaskEntity } from '../task.entity';
import type { TaskStatus } from '../task-status';

/** The lease a hand-over runs under: the task's current holder (or this instance), its heartbeat pushing the lease forward. */
@Injectable()
export class SubmitLeases {
  private readonly logger = new Logger('TaskSubmit');

  constructor(
    private readonly submits: TaskSubmitRepository,
    private readonly clock: Clock,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts the heartbeat of `task`'s lease while it stays in `status`; the caller stops it. */
  start(task: TaskEntity, status: TaskStatus): { owner: string; lease: SubmitLease } {
    const owner = task.leaseOwner ?? this.instanceId;
    const lease = new SubmitLease(
      this.config.taskLeaseMs,
      () => this.submits.extendSubmitLease(task.id, owner, this.clock.now() + this.config.taskLeaseMs, status),
      (error) => this.logger.warn(`lease heartbeat of ${task.taskId} failed: ${(error as Error)?.message ?? error}`),
    );
    return { owner, lease };
  }
}
