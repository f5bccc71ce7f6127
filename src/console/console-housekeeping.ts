import { Injectable } from '@nestjs/common';
import { HousekeepingSweeps } from '../housekeeping/housekeeping-sweeps';
import { ConsoleSessionsService } from './console-sessions.service';

/** Expired console sessions are deleted by housekeeping. */
@Injectable()
export class ConsoleHousekeeping {
  constructor(sweeps: HousekeepingSweeps, sessions: ConsoleSessionsService) {
    sweeps.register({
      table: 'console_sessions',
      sweep: async (now, limit) => ({ rows: await sessions.deleteExpiredSessions(now, limit) }),
    });
  }
}
