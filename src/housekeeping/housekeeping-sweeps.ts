import { Injectable } from '@nestjs/common';
import type { HousekeepingSweep } from './housekeeping-sweep';

/** The sweeps the owning modules registered (at construction); the housekeeping job runs them all. */
@Injectable()
export class HousekeepingSweeps {
  private readonly sweeps = new Map<string, HousekeepingSweep>();

  register(sweep: HousekeepingSweep): void {
    if (this.sweeps.has(sweep.table)) throw new Error(`a housekeeping sweep of ${sweep.table} is registered twice`);
    this.sweeps.set(sweep.table, sweep);
  }

  all(): HousekeepingSweep[] {
    return [...this.sweeps.values()];
  }
}
