import { Injectable } from '@nestjs/common';
import { HousekeepingSweeps } from '../housekeeping/housekeeping-sweeps';
import { PortraitUploadsService } from './portrait-uploads.service';

/** Portrait uploads whose link expired are deleted by housekeeping (the provider fetched them long before). */
@Injectable()
export class VerificationHousekeeping {
  constructor(sweeps: HousekeepingSweeps, uploads: PortraitUploadsService) {
    sweeps.register({ table: 'portrait_uploads', sweep: (now, limit) => uploads.deleteExpiredUploads(now, limit) });
  }
}
