import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { INSTANCE_ID } from '../config/instance-id';
import { JobRunner } from './job-runner.service';

/**
 * What every leased job is built on, injected as one: the configuration (its intervals), this
 * instance's id (its claims' lease owners), the clock and the runner it registers with.
 */
@Injectable()
export class JobContext {
  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(INSTANCE_ID) readonly instanceId: string,
    readonly clock: Clock,
    readonly runner: JobRunner,
  ) {}
}
